# Sourced by the header tests (header_check.sh, header_run.sh,
# header_abi.sh): their common setup, and the loop header_run and
# header_abi run over a model list.
set -u
cli="${TINYARENA_CLI:?}"; data="${TINYARENA_DATA:-../shared}"
cc="${TA_CC:-cc}"; src="${TINYARENA_SRC:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# What a test cannot do here: SKIP, but FAIL under CI.
skip() { if [ "${CI:-}" = true ]; then echo "FAIL: $1 under CI"; exit 1; fi; echo "SKIP: $1"; exit 0; }
[ -d "$data/models" ] || skip "shared models not found at $data"
fail=0; n=0
# How header_models runs the built program: empty runs it natively; a
# caller sets it to an emulator (header_abi: qemu-i386 where the kernel
# cannot execute 32-bit binaries).
run_with=""

# header_models NOTE < LIST: for each "MODEL CASE..." line of LIST, from
# TFLM's graph (TFLM's alignment, and the dtype rule: every tensor at its
# element size only) and from the rewritten one (`--rewrite all`, the
# default alignment rule arch 4: the header records the rewrites and the
# rule and the runtime applies them from the table), emit
# the header, build it with the caller's `header_build HEADER PROGRAM`, run
# every case and compare each output with TFLM's bytes.  Counts the
# identical outputs in n, sets fail=1 on any failure; NOTE ends each line's
# parenthesis.
header_models() {
  local note="$1" model cases flat h rw c dir want k v rule
  while read -r model cases; do
    [ -z "$model" ] && continue
    flat=$(echo "$model" | sed 's|/|__|g')
    h="$tmp/budget.h"
    for v in none:tflm none:dtype all:arch; do
      rw="${v%%:*}, align ${v#*:}" rule=${v#*:}
      "$cli" plan "$data/models/$model.tflite" --strategy best --rewrite ${v%%:*} --align-rule $rule --header "$h" > /dev/null || { echo "FAIL: emit $model ($rw$note)"; fail=1; continue; }
      header_build "$h" "$tmp/run" || { echo "FAIL: compile $model ($rw$note)"; fail=1; continue; }
      for c in $cases; do
        dir="$data/models/reference/cases/$flat/$c"
        rm -rf "$tmp/out"; mkdir -p "$tmp/out"
        $run_with "$tmp/run" "$data/models/$model.tflite" "$tmp/out" $(ls "$dir"/input*.raw | sort -V) > /dev/null || { echo "FAIL: run $model $c ($rw$note)"; fail=1; continue; }
        for want in "$dir"/tflm_output*.bin; do
          k=$(basename "$want" | sed 's/tflm_output\([0-9]*\).bin/\1/')
          if cmp -s "$want" "$tmp/out/output$k.bin"; then n=$((n+1)); else echo "FAIL: $model $c output$k differs from TFLM ($rw$note)"; fail=1; fi
        done
        echo "ok: $model $c (rewrites: $rw$note)"
      done
    done
  done
}
