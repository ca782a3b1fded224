#!/usr/bin/env bash
# Pictures of a plan: `plan --svg`, `--html`, `--timeline`.
#  - the SVG and HTML are well-formed XML (xmllint), and the HTML parses as
#    HTML with nothing wrong but the HTML4 parser not knowing SVG/HTML5 tags;
#  - one <rect> per buffer at the JSON's offsets, lifetimes and ids, drawn
#    where the map's scale puts them; every map in the report, no overlaps;
#  - the report's strategy table is the CLI's, cell for cell;
#  - the timeline: at most 80 columns, one row per step, the peak marked,
#    plain ASCII unless --color;
#  - one headless-Chromium screenshot of a shared model's report, not blank.
# Without the shared models only the buffer-list checks run (SKIP is printed);
# under CI=true missing data or tools (xmllint, python3, chromium) fail.
set -u
cli="${TINYARENA_CLI:?}"
data="${TINYARENA_DATA:-../shared}"
here="$(cd "$(dirname "$0")" && pwd)"
check="$here/viz_check.py"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out="${TINYARENA_VIZ_OUT:-$tmp}" # keeps the screenshot and report after the test
mkdir -p "$out"
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
ci() { [ "${CI:-}" = true ]; }
have() { # tool: present, or FAIL under CI / SKIP outside
  command -v "$1" >/dev/null 2>&1 && return 0
  if ci; then bad "$1 is missing under CI (scripts/setup.sh installs it)"; else echo "SKIP: $1 not installed: $2"; fi
  return 1
}
py() { python3 "$check" "$@" || fail=1; }

# Well-formed XML; for HTML also the HTML parser, where only "Tag X invalid"
# for SVG and HTML5 elements (libxml2's HTML parser is HTML4) is expected.
wellformed() {
  if xmllint --noout "$1" 2>"$tmp/xml.err"; then ok "xmllint: $(basename "$1") well-formed"
  else bad "xmllint: $1: $(head -3 "$tmp/xml.err")"; fi
  case "$1" in *.html)
    xmllint --html --noout "$1" 2>&1 | grep -E 'error|warning' |
      grep -vE 'Tag (svg|g|rect|line|path|text|tspan|title|figure|figcaption) invalid' > "$tmp/html.err"
    if [ ! -s "$tmp/html.err" ]; then ok "xmllint --html: $(basename "$1") parses"
    else bad "xmllint --html: $1: $(head -3 "$tmp/html.err")"; fi;;
  esac
}

have_xml=0; have xmllint "well-formedness checks" && have_xml=1
have_py=0; have python3 "rect/JSON, table and timeline checks" && have_py=1

# --- Buffer lists: always (no shared data needed).  Ids carry XML's special
# characters and non-ASCII text.
{
  echo "id,lower,upper,size"
  echo "in<put>,0,2,4096"
  echo "a&b,1,3,8192"
  echo "q\"uote'd,2,5,2048"
  echo "caf$(printf '\xc3\xa9'),3,6,16384"
  echo "]]>cdata,4,8,1000"
  for i in $(seq 0 39); do echo "t$i,$((i % 13)),$((i % 13 + 1 + i % 4)),$(( (i * 7919) % 5000 + 16 ))"; done
} > "$tmp/list.csv"
"$cli" plan --buffers "$tmp/list.csv" --strategy greedy --json --svg "$tmp/list.svg" --html "$tmp/list1.html" \
  > "$tmp/list.json" || bad "plan --buffers --svg --html --json"
"$cli" plan --buffers "$tmp/list.csv" --html "$tmp/list.html" --svg "$tmp/list_best.svg" --timeline \
  > "$tmp/list.txt" || bad "plan --buffers --html --timeline"
if [ $have_xml = 1 ]; then
  for f in "$tmp/list.svg" "$tmp/list1.html" "$tmp/list.html" "$tmp/list_best.svg"; do wellformed "$f"; done
fi
if [ $have_py = 1 ]; then
  py rects "$tmp/list.svg" "$tmp/list.json"
  py rects "$tmp/list1.html" "$tmp/list.json"
  py maps "$tmp/list.html" 45
  py table "$tmp/list.html" "$tmp/list.txt"
  py timeline "$tmp/list.txt" "$tmp/list.json"
fi
# Colour only on request (stdout is a pipe here); without the escapes it is the plain view.
"$cli" plan --buffers "$tmp/list.csv" --strategy greedy --timeline > "$tmp/plain.txt"
"$cli" plan --buffers "$tmp/list.csv" --strategy greedy --timeline --color > "$tmp/color.txt"
if grep -q $'\033' "$tmp/plain.txt"; then bad "--timeline writes escapes into a pipe"
elif ! grep -q $'\033\[' "$tmp/color.txt"; then bad "--timeline --color has no colour"
# (only the timeline: the strategy table above it has run times)
elif [ "$(sed 's/\x1b\[[0-9;]*m//g' "$tmp/color.txt" | sed -n '/^timeline, /,$p')" != "$(sed -n '/^timeline, /,$p' "$tmp/plain.txt")" ]; then
  bad "--color changes more than colour"
else ok "--timeline: plain ASCII into a pipe, --color adds only ANSI escapes"; fi
"$cli" plan --buffers "$tmp/list.csv" --timeline --json >/dev/null 2>&1
[ $? -eq 2 ] && ok "--timeline --json is a usage error" || bad "--timeline --json accepted"
"$cli" plan --buffers "$tmp/list.csv" --svg "$tmp/no/such/dir.svg" >/dev/null 2>&1
[ $? -eq 1 ] && ok "unwritable --svg fails" || bad "unwritable --svg did not fail"
# Bytes XML cannot carry (invalid UTF-8, control characters) still give well-formed files.
printf 'id,lower,upper,size\nbad\377\001name,0,2,64\nok,1,3,64\n' > "$tmp/bad.csv"
"$cli" plan --buffers "$tmp/bad.csv" --svg "$tmp/bad.svg" --html "$tmp/bad.html" >/dev/null || bad "plan bad.csv"
[ $have_xml = 1 ] && wellformed "$tmp/bad.svg" && wellformed "$tmp/bad.html"

# --- The firmware plan with patch stages (default options: every rewrite,
# --patch-overhead 10): the map --svg and the report draw is the header's
# plan, its figures plan --json's and the header's.  A planted disagreement
# (the arena one word larger, a band larger than its buffer) must fail the
# check.  A generated CNN always (gen_conv_model), person_detect with the
# shared models.
patch_case() { # MODEL NAME
  local f="$1" n="$2"
  if ! "$cli" plan "$f" --json --svg "$tmp/$n.svg" --html "$tmp/$n.html" > "$tmp/$n.json" ||
     ! "$cli" plan "$f" --header "$tmp/$n.h" > /dev/null; then
    bad "$n: plan --json --svg --html / --header with patch stages"; return
  fi
  [ $have_xml = 1 ] && wellformed "$tmp/$n.svg" && wellformed "$tmp/$n.html"
  [ $have_py = 1 ] || return
  py patch "$tmp/$n.svg" "$tmp/$n.json" "$tmp/$n.h"
  py patch "$tmp/$n.html" "$tmp/$n.json" "$tmp/$n.h"
  local a
  a=$(grep -o ' data-arena="[0-9]*"' "$tmp/$n.svg" | head -1 | grep -o '[0-9]*')
  sed "s/ data-arena=\"$a\"/ data-arena=\"$((a + 4))\"/" "$tmp/$n.svg" > "$tmp/${n}_planted1.svg"
  sed '0,/class="band" \(data-i="[0-9]*" data-band="[0-9]*"\) data-bytes="\([0-9]*\)"/s//class="band" \1 data-bytes="\29"/' \
    "$tmp/$n.svg" > "$tmp/${n}_planted2.svg"
  for planted in planted1 planted2; do
    if cmp -s "$tmp/${n}_$planted.svg" "$tmp/$n.svg"; then bad "$n $planted: nothing planted"
    elif python3 "$check" patch "$tmp/${n}_$planted.svg" "$tmp/$n.json" "$tmp/$n.h" > "$tmp/planted.out"; then
      bad "$n $planted: a planted disagreement passed the patch check"
    else ok "$n $planted: the patch check fails it: $(cat "$tmp/planted.out")"; fi
  done
}
gen="${TINYARENA_GEN_CONV:-}"
if [ -n "$gen" ] && "$gen" "$tmp/conv.tflite"; then
  patch_case "$tmp/conv.tflite" conv_patch
else
  bad "gen_conv_model (TINYARENA_GEN_CONV) did not write a model"
fi

# --- The shared models the issue names.
models="tflm/person_detect tflm/xtensa_mobilenet_v2_quantized_1x3x224x224 openmv/yolov8n_192"
if [ -d "$data/models" ]; then
  for m in $models; do
    name=$(basename "$m")
    f="$data/models/$m.tflite"
    "$cli" plan "$f" --rewrite none --svg "$tmp/$name.svg" --json > "$tmp/$name.json" || { bad "$name: plan --svg --json"; continue; }
    "$cli" plan "$f" --rewrite none --html "$out/$name.html" --timeline > "$tmp/$name.txt" || { bad "$name: plan --html --timeline"; continue; }
    if [ $have_xml = 1 ]; then wellformed "$tmp/$name.svg"; wellformed "$out/$name.html"; fi
    if [ $have_py = 1 ]; then
      n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["buffers"]))' "$tmp/$name.json")
      py rects "$tmp/$name.svg" "$tmp/$name.json"
      py maps "$out/$name.html" "$n"
      py table "$out/$name.html" "$tmp/$name.txt"
      py timeline "$tmp/$name.txt" "$tmp/$name.json"
    fi
  done
  # Another strategy, chosen by --strategy, in both pictures.
  f="$data/models/tflm/person_detect.tflite"
  "$cli" plan "$f" --rewrite none --strategy linear --svg "$tmp/pd_linear.svg" --html "$tmp/pd_linear.html" --json > "$tmp/pd_linear.json"
  [ $have_py = 1 ] && py rects "$tmp/pd_linear.svg" "$tmp/pd_linear.json" && py rects "$tmp/pd_linear.html" "$tmp/pd_linear.json"
  # An offline plan whose fixed buffers overlap on purpose still draws.
  "$cli" plan "$data/models/tflm/person_detect_vela.tflite" --rewrite none --svg "$tmp/vela.svg" >/dev/null || bad "vela --svg"
  [ $have_xml = 1 ] && wellformed "$tmp/vela.svg"

  patch_case "$data/models/tflm/person_detect.tflite" pd_patch

  # --- One rendering in headless Chromium: the report of yolov8n_192.
  if have chromium "no rendering check"; then
    png="$out/yolov8n_192_report.png"
    rm -f "$png"
    profile=$(mktemp -d)
    timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
      --user-data-dir="$profile" --screenshot="$png" --window-size=1400,1000 \
      "file://$out/yolov8n_192.html" > "$tmp/chromium.log" 2>&1
    rm -rf "$profile"
    if [ -s "$png" ]; then
      [ $have_py = 1 ] && py png "$png"
      echo "screenshot: $png (report: $out/yolov8n_192.html)"
    else
      bad "chromium wrote no screenshot: $(tail -3 "$tmp/chromium.log")"
    fi
  fi
elif ci; then
  bad "shared models missing under CI: $data/models"
else
  echo "SKIP: shared models not found at $data/models (model maps, reports, screenshot)"
fi
exit $fail
