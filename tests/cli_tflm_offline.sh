#!/usr/bin/env bash
# `tinyarena plan MODEL --tflm-offline OUT.tflite`: flags, JSON fields, and
# the written model planned again by us (its offsets are fixed: greedy
# follows them to the predicted head).
set -u
cli="${TINYARENA_CLI:?}"
data="${TINYARENA_DATA:-../shared}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

out=$("$cli" plan --buffers x.csv --tflm-offline "$tmp/o.tflite" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && ok "--tflm-offline is for models: $out" || bad "--tflm-offline with --buffers: rc=$rc $out"
out=$("$cli" plan model.tflite --tflm-offline 2>&1); rc=$?
[ $rc -eq 2 ] && ok "--tflm-offline needs a value" || bad "--tflm-offline without a value: rc=$rc $out"

m="$data/models/mlperf_tiny/vww_96_int8.tflite"
if [ ! -f "$m" ]; then
  [ "${CI:-}" = true ] && { echo "FAIL: shared models missing under CI"; exit 1; }
  echo "SKIP: shared models not found"; exit 0
fi
json=$("$cli" plan "$m" --tflm-offline "$tmp/vww.tflite" --json --rewrite none) || bad "json run"
for field in '"tflm_offline": {"tensors_fixed": 32, "predicted_tflm_head_bytes": 55296, "tflm_greedy_head_bytes": 73728' \
             '"arena_bytes": 55296'; do
  echo "$json" | grep -qF "$field" && ok "json has $field" || bad "json lacks $field: $json"
done
if command -v python3 >/dev/null; then
  echo "$json" | python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["tflm_offline"]; assert t["tensors_fixed"]==32 and t["predicted_tflm_head_bytes"]==55296' \
    && ok "json parses" || bad "json does not parse"
fi
"$cli" plan "$m" --json | grep -q '"tflm_offline"' && bad "json without --tflm-offline has its field" || ok "json without --tflm-offline unchanged"
# the written model: our greedy follows its fixed offsets to 55,296 B (TFLM's own greedy gives 73,728 B)
json=$("$cli" plan "$tmp/vww.tflite" --strategy greedy --json --rewrite none) || bad "re-plan"
echo "$json" | grep -qF '"arena_bytes": 55296' && ok "written model plans to 55,296 B with greedy" || bad "re-plan: $json"
# and runs to the same output bytes as the original
case="$data/models/reference/cases/mlperf_tiny__vww_96_int8/random/input0.raw"
if [ -f "$case" ]; then
  mkdir -p "$tmp/a" "$tmp/b"
  "$cli" run "$m" --input "$case" --outputs "$tmp/a" >/dev/null 2>&1 && \
  "$cli" run "$tmp/vww.tflite" --input "$case" --outputs "$tmp/b" >/dev/null 2>&1 && \
  cmp -s "$tmp/a/output0.bin" "$tmp/b/output0.bin" \
    && ok "written model runs to the same output" || bad "written model output differs"
fi
# an existing plan is replaced, with a warning naming both heads
v="$data/models/tflm/person_detect_vela.tflite"
out=$("$cli" plan "$v" --tflm-offline "$tmp/vela.tflite" 2>&1 >/dev/null); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "existing OfflineMemoryAllocation plan (TFLM head 74464 B, as simulated) is replaced" \
  && ok "vela plan replaced: $out" || bad "vela: rc=$rc $out"
# TFLM's own kernel scratch (audio_preprocessor: SignalRfft asks 1,024 B at
# op 3, our kernel none): the plan stays at TFLM's 3,040 B instead of 3,120 B
a="$data/models/tflm/audio_preprocessor_int8.tflite"
json=$("$cli" plan "$a" --tflm-offline "$tmp/a.tflite" --tflm-scratch 3:1024 --json) || bad "--tflm-scratch run"
echo "$json" | grep -qF '"predicted_tflm_head_bytes": 3040, "tflm_greedy_head_bytes": 3040, "scratch_buffers": 1' \
  && ok "--tflm-scratch 3:1024" || bad "--tflm-scratch: $json"
out=$("$cli" plan "$a" --tflm-offline "$tmp/a.tflite" --tflm-scratch 99:16 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && ok "bad --tflm-scratch: $out" || bad "--tflm-scratch 99:16: rc=$rc $out"
out=$("$cli" plan "$a" --tflm-scratch none 2>&1); rc=$?
[ $rc -eq 2 ] && ok "--tflm-scratch alone: $out" || bad "--tflm-scratch without --tflm-offline: rc=$rc"
# an unwritable output: one line, non-zero
out=$("$cli" plan "$m" --tflm-offline "$tmp/no/such/dir/x.tflite" 2>&1 >/dev/null); rc=$?
[ $rc -ne 0 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && ok "unwritable: $out" || bad "unwritable: rc=$rc $out"
exit $fail
