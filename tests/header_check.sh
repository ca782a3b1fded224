#!/usr/bin/env bash
# Emits the budget-table header for real models and compiles it into a small
# C program that checks every offset against the library's own plan.
. "$(dirname "$0")/header_lib.sh"
lib="${TA_LIB:?}"
for model in tflm/person_detect mlperf_tiny/vww_96_int8 openmv/yolov8n_192 tflm/xtensa_mobilenet_v2_quantized_1x3x224x224; do
  for sr in greedy:arch best:arch greedy:tflm best:dtype; do
    strategy=${sr%%:*}
    h="$tmp/model_arena.h"
    "$cli" plan "$data/models/$model.tflite" --strategy $strategy --rewrite none --align-rule ${sr#*:} --header "$h" > /dev/null || { echo "FAIL: emit $model"; fail=1; continue; }
    $cc -std=c11 -Wall -Wextra -Werror $TA_CFLAGS -I"$src/include" -DTA_HEADER="\"$h\"" -DTA_BUDGET=model_arena \
        "$src/tests/header_check.c" "$lib" -lm -o "$tmp/check" || { echo "FAIL: compile $model"; fail=1; continue; }
    "$tmp/check" "$data/models/$model.tflite" || fail=1
  done
done
exit $fail
