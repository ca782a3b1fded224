#!/usr/bin/env bash
# plan --region (issue #16): the table, the JSON contract, one SVG per
# region, the CSV region column, the one-line overflow message, bad specs;
# and firmware-style runs from the emitted header -- person_detect from a
# 32 KB FAST region plus a SLOW one, MobileNetV2 from 256 KB plus a slow
# one -- byte-identical to TFLM.
. "$(dirname "$0")/header_lib.sh"
lib="${TA_LIB:?}"
check() { if eval "$2"; then n=$((n+1)); echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
pd="$data/models/tflm/person_detect.tflite"
mb="$data/models/tflm/xtensa_mobilenet_v2_quantized_1x3x224x224.tflite"

# the table and the JSON contract
out=$("$cli" plan "$pd" --region FAST:32K --region SLOW:1M); rc=$?
check "table exits 0" '[ $rc = 0 ]'
check "table names both regions" 'echo "$out" | grep -q "^  FAST  " && echo "$out" | grep -q "^  SLOW  "'
# (TFLM's graph: no overlap relations, so no two live buffers of a region share a byte)
"$cli" plan "$pd" --rewrite none --region FAST:32K --region SLOW:1M:4 --json > "$tmp/p.json"; rc=$?
check "json exits 0" '[ $rc = 0 ]'
check "json contract" 'python3 - "$tmp/p.json" <<PY
import json, sys
j = json.load(open(sys.argv[1]))
r = j["regions"]
assert [x["name"] for x in r] == ["FAST", "SLOW"] and r[0]["capacity"] == 32768 and r[1]["cost"] == 4
for x in r:
    for k in ("capacity", "used_bytes", "lower_bound_bytes", "accessed_bytes"): assert isinstance(x[k], int)
    assert x["lower_bound_bytes"] <= x["used_bytes"] <= x["capacity"]
assert all(b["region"] in ("FAST", "SLOW") for b in j["buffers"])
assert sum(x["accessed_bytes"] for x in r) == sum(b["accessed_bytes"] for b in j["buffers"])
# per region no two live buffers share a byte
for name in ("FAST", "SLOW"):
    bs = [b for b in j["buffers"] if b["region"] == name]
    for a in bs:
        for b in bs:
            if a is b or a["first"] > b["last"] or b["first"] > a["last"]: continue
            assert a["offset"] + a["padded_size"] <= b["offset"] or b["offset"] + b["padded_size"] <= a["offset"], (a, b)
assert j["persistent_region"] == "SLOW"
PY'
# one map per region
"$cli" plan "$pd" --region FAST:32K --region SLOW:1M --svg "$tmp/m.svg" > /dev/null; rc=$?
check "svg: one map per region" '[ $rc = 0 ] && [ -s "$tmp/m-FAST.svg" ] && [ -s "$tmp/m-SLOW.svg" ] && [ ! -e "$tmp/m.svg" ]'
# impossible capacity: one line naming the region, by how much, the least total
err=$("$cli" plan "$pd" --region FAST:8K --region SLOW:16K 2>&1 >/dev/null); rc=$?
check "overflow: exit 1, one line" '[ $rc = 1 ] && [ $(echo "$err" | wc -l) = 1 ]'
check "overflow: names region, bytes and total" 'echo "$err" | grep -q "region SLOW overflows by [0-9]* bytes" && echo "$err" | grep -q "no plan fits below [0-9]* bytes in total"'
# bad specs: usage
for bad in "FAST" "FAST:" ":100" "FAST:12Q" "FAST:1:x"; do
  "$cli" plan "$pd" --region "$bad" --region SLOW:1M > /dev/null 2>&1; rc=$?
  check "bad --region '$bad' is a usage error" '[ $rc = 2 ]'
done
"$cli" plan "$pd" --region A:1M --region A:1M > /dev/null 2>&1; rc=$?
check "a region named twice" '[ $rc = 2 ]'
"$cli" plan "$pd" --region A:1M --persistent-region B > /dev/null 2>&1; rc=$?
check "unknown persistent region" '[ $rc = 2 ]'
# a buffer list with pins
cat > "$tmp/l.csv" <<CSV
id,size,first,last,region
a,100,0,1,
b,100,1,2,SLOW
c,40,3,3,
CSV
"$cli" plan --buffers "$tmp/l.csv" --region FAST:128 --region SLOW:1000 --json > "$tmp/l.json"; rc=$?
check "csv region column pins" '[ $rc = 0 ] && python3 -c "import json,sys; j=json.load(open(sys.argv[1])); r={b[\"id\"]: b[\"region\"] for b in j[\"buffers\"]}; assert r == {\"a\": \"FAST\", \"b\": \"SLOW\", \"c\": \"FAST\"}, r" "$tmp/l.json"'
"$cli" plan --buffers "$tmp/l.csv" --region FAST:128 --region SLOW:1000 --offsets "$tmp/o.csv" > /dev/null; rc=$?
check "--offsets: each buffer's region and offset there" '[ $rc = 0 ] && grep -qx "b,100,1,2,SLOW,0" "$tmp/o.csv" && grep -qx "id,size,first,last,region,offset" "$tmp/o.csv"'
sed 's/SLOW$/NOPE/' "$tmp/l.csv" > "$tmp/l2.csv"
err=$("$cli" plan --buffers "$tmp/l2.csv" --region FAST:128 --region SLOW:1000 2>&1); rc=$?
check "csv: unknown region named with its line" '[ $rc = 1 ] && echo "$err" | grep -q "l2.csv:3: buffer .b.: region .NOPE."'

# firmware from the header: one array per region, bit-exact with TFLM
run_header() { # MODEL FLAT FAST_KB CASES...
  local model=$1 flat=$2 kb=$3; shift 3
  "$cli" plan "$model" --region FAST:${kb}K --region SLOW:16M --header "$tmp/budget.h" > /dev/null || { echo "FAIL: emit $flat"; fail=1; return; }
  local fb=$(sed -n 's/^#define BUDGET_REGION_FAST_BYTES \([0-9]*\)u.*/\1/p' "$tmp/budget.h")
  check "$flat: FAST region of $fb B within ${kb} KB" '[ -n "$fb" ] && [ "$fb" -le $((kb * 1024)) ]'
  $cc -std=c11 -Wall -Wextra -Werror $TA_CFLAGS -I"$src/include" -DTA_HEADER="\"$tmp/budget.h\"" \
      "$src/tests/regions_header.c" "$lib" -lm -o "$tmp/rh" || { echo "FAIL: compile $flat"; fail=1; return; }
  for c in "$@"; do
    local dir="$data/models/reference/cases/$flat/$c"
    rm -rf "$tmp/out"; mkdir -p "$tmp/out"
    "$tmp/rh" "$model" "$tmp/out" "$dir/input0.raw" > "$tmp/rh.log" || { echo "FAIL: run $flat $c"; cat "$tmp/rh.log"; fail=1; continue; }
    check "$flat $c from FAST ${kb} KB + SLOW, bit-exact" 'cmp -s "$dir/tflm_output0.bin" "$tmp/out/output0.bin"'
    check "$flat $c: a short FAST region is refused with one line" 'grep -q "^short FAST region: region FAST needs [0-9]* bytes, has [0-9]*$" "$tmp/rh.log"'
  done
}
run_header "$pd" tflm__person_detect 32 person no_person
run_header "$mb" tflm__xtensa_mobilenet_v2_quantized_1x3x224x224 256 dog
echo "cli_regions: $n checks passed"
exit $fail
