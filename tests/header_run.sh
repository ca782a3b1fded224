#!/usr/bin/env bash
# Every model the runtime must match TFLM on, run from the header that
# `tinyarena plan --header` emits: a static arena of exactly the header's
# size, the header's table as the plan (no planner called), and outputs
# byte-identical to TFLM's reference outputs.
set -u
cli="${TINYARENA_CLI:?}"; data="${TINYARENA_DATA:-../shared}"
cc="${TA_CC:-cc}"; lib="${TA_LIB:?}"; src="${TINYARENA_SRC:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ ! -d "$data/models" ]; then
  if [ "${CI:-}" = true ]; then echo "FAIL: shared models missing under CI"; exit 1; fi
  echo "SKIP: shared models not found at $data"; exit 0
fi
fail=0; n=0
while read -r model cases; do
  [ -z "$model" ] && continue
  flat=$(echo "$model" | sed 's|/|__|g')
  h="$tmp/budget.h"
  "$cli" plan "$data/models/$model.tflite" --strategy best --header "$h" > /dev/null || { echo "FAIL: emit $model"; fail=1; continue; }
  $cc -std=c11 -Wall -Wextra -Werror $TA_CFLAGS -I"$src/include" -DTA_HEADER="\"$h\"" -DTA_PREFIX=BUDGET -DTA_BUDGET=budget \
      "$src/tests/header_run.c" "$lib" -lm -o "$tmp/run" || { echo "FAIL: compile $model"; fail=1; continue; }
  for c in $cases; do
    dir="$data/models/reference/cases/$flat/$c"
    rm -rf "$tmp/out"; mkdir -p "$tmp/out"
    "$tmp/run" "$data/models/$model.tflite" "$tmp/out" $(ls "$dir"/input*.raw | sort -V) > /dev/null || { echo "FAIL: run $model $c"; fail=1; continue; }
    for want in "$dir"/tflm_output*.bin; do
      k=$(basename "$want" | sed 's/tflm_output\([0-9]*\).bin/\1/')
      if cmp -s "$want" "$tmp/out/output$k.bin"; then n=$((n+1)); else echo "FAIL: $model $c output$k differs from TFLM"; fail=1; fi
    done
    echo "ok: $model $c"
  done
done <<'LIST'
tflm/person_detect person no_person
tflm/xtensa_mobilenet_v2_quantized_1x3x224x224 dog
mlperf_tiny/ad01_int8 random
mlperf_tiny/ic_pretrainedResnet_quant image
mlperf_tiny/kws_ref_model_int8 image
mlperf_tiny/vww_96_int8 image
openmv/blazeface_front_128 image
tflm/hello_world_int8 random
tflm/hello_world_float random
tflm/micro_speech_quantized random
tflm/simple_add_model random
LIST
echo "header_run: $n outputs byte-identical to TFLM from emitted headers"
exit $fail
