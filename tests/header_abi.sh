#!/usr/bin/env bash
# The op constants blob is portable: headers emitted by the (64-bit) CLI run
# a 32-bit build (cc -m32: 4-byte pointers and size_t, 4-byte aligned
# int64 -- another struct layout than the host's) bit-exact with TFLM, and
# the record field lists describe every params struct on that ABI too.
# Needs a multilib C compiler (scripts/setup.sh installs gcc-multilib):
# SKIP without one outside CI, FAIL under CI.  SSE float math (-mfpmath=sse):
# x87 excess precision would change float results, which is not the point here.
. "$(dirname "$0")/header_lib.sh"
echo 'int main(void) { return sizeof(void *) != 4; }' > "$tmp/m32.c"
$cc -m32 "$tmp/m32.c" -o "$tmp/m32" 2>/dev/null || skip "$cc -m32 cannot build 32-bit programs (apt-get install gcc-multilib)"
# Some kernels are built without 32-bit support (exec fails with "Exec
# format error"): the same binaries then run under qemu-i386 (qemu-user,
# which scripts/setup.sh installs), still bit-exact: SSE2 math is IEEE.
if "$tmp/m32" 2>/dev/null; then run_with=""
elif command -v qemu-i386 > /dev/null && qemu-i386 "$tmp/m32"; then run_with="qemu-i386"; echo "note: this kernel cannot execute 32-bit binaries; running them under qemu-i386"
else skip "32-bit programs cannot run here, natively or under qemu-i386 (apt-get install qemu-user)"; fi
flags="-m32 -msse2 -mfpmath=sse -std=c11 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Werror -I$src/include -I$src/src"
mkdir -p "$tmp/obj"
for f in $(cd "$src" && find src -name '*.c'); do
  $cc $flags -c "$src/$f" -o "$tmp/obj/$(echo "$f" | tr / _).o" || { echo "FAIL: compile $f with -m32"; exit 1; }
done
ar rcs "$tmp/lib32.a" "$tmp"/obj/*.o
cat > "$tmp/layout.c" <<'C'
#include <stdio.h>
#include "runtime/ops.h"
int main(void) {
    ta_diag d;
    if (ta__op_layout_check(&d)) return fprintf(stderr, "%s\n", d.msg), 1;
    return 0;
}
C
if $cc $flags "$tmp/layout.c" "$tmp/lib32.a" -lm -o "$tmp/layout" && $run_with "$tmp/layout"; then echo "ok: record field lists cover every params struct (-m32)"; else echo "FAIL: record layout (-m32)"; fail=1; fi
# Each model from TFLM's graph and from the rewritten one (--rewrite all).
header_build() {
  grep -q "BUDGET_CONST_BYTES" "$1" || { echo "FAIL: no const blob in the header"; return 1; }
  $cc $flags -DTA_HEADER="\"$1\"" -DTA_PREFIX=BUDGET -DTA_BUDGET=budget -DTA_OPS=BUDGET_OPS "$src/tests/header_run.c" "$tmp/lib32.a" -lm -o "$2"
}
header_models ", -m32, const blob from the 64-bit CLI" <<'LIST'
tflm/person_detect person no_person
tflm/xtensa_mobilenet_v2_quantized_1x3x224x224 dog
mlperf_tiny/ad01_int8 random
mlperf_tiny/ic_pretrainedResnet_quant image
mlperf_tiny/kws_ref_model_int8 image
mlperf_tiny/vww_96_int8 image
openmv/blazeface_front_128 image
openmv/yolov8n_192 image
tflm/hello_world_int8 random
tflm/hello_world_float random
tflm/micro_speech_quantized random
tflm/audio_preprocessor_int8 random
tflm/simple_add_model random
fiti/KWS_2_001_002_attention random
tflm/keyword_scrambled random
tflm/mnist_lstm_trained_lstm_int8 random
tflm/dtln_noise_suppression golden random
tflm/seanet/conv0 random
tflm/seanet/leaky_relu0 random
tflm/seanet/quantize0 random
tflm/seanet/sub0 random
tflm/seanet/transpose_conv0 random
LIST
echo "header_abi: $n outputs byte-identical to TFLM from a 32-bit build reading the emitted const blobs"
exit $fail
