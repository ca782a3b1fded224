#!/usr/bin/env bash
# Arm64 (aarch64 Linux, Raspberry Pi class) under qemu-user: the library
# cross-compiled with aarch64-linux-gnu-gcc (-O2 -Werror, static), twice --
# armv8-a (the NEON dot products by SMULL/SADALP) and armv8.2-a+dotprod
# (SDOT) -- and for each:
#  - tests/test_kernels_fast.c (every fast kernel against the reference
#    kernel on seeded random shapes, byte for byte) run under qemu-aarch64;
#  - the CLI (`tinyarena run`) on the MLPerf Tiny models and person_detect,
#    every output byte-identical to TFLM's.
# Needs gcc-aarch64-linux-gnu and qemu-user (scripts/setup.sh installs them):
# SKIP without them outside CI, FAIL under CI.
set -u
src="${TINYARENA_SRC:?}"
data="${TINYARENA_DATA:-../shared}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
skip() { if [ "${CI:-}" = true ]; then echo "FAIL: $1 under CI"; exit 1; fi; echo "SKIP: $1"; exit 0; }
command -v aarch64-linux-gnu-gcc > /dev/null || skip "aarch64-linux-gnu-gcc not found (apt-get install gcc-aarch64-linux-gnu)"
command -v qemu-aarch64 > /dev/null || skip "qemu-aarch64 not found (apt-get install qemu-user)"
[ -d "$data/models" ] || skip "shared models not found at $data"
fail=0
flags="-std=c11 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Werror"
inc="-I$src/include -I$src/src -I$src/tools -I$src/tests"
for march in armv8-a armv8.2-a+dotprod; do
  d="$tmp/$march"; mkdir -p "$d/obj"
  # the library once per architecture level, objects shared by both links
  objs=()
  for f in $(cd "$src" && find src -name '*.c' | sort); do
    o="$d/obj/$(echo "$f" | tr / _ | sed 's/\.c$/.o/')"
    aarch64-linux-gnu-gcc $flags -march=$march $inc -c "$src/$f" -o "$o" \
      || { echo "FAIL: $f does not cross-compile for aarch64 ($march)"; fail=1; continue 2; }
    objs+=("$o")
  done
  # the kernels exist, and are NEON: the dot products use SDOT or SMULL
  want=smull; [ $march = armv8.2-a+dotprod ] && want=sdot
  if ! aarch64-linux-gnu-objdump -d "$d/obj/src_runtime_kernels_conv2d_s8_fast.o" | grep -qw "$want"; then
    echo "FAIL: $march: no $want in the fast convolution"; fail=1
  fi
  if ! aarch64-linux-gnu-gcc $flags -march=$march $inc -static "$src/tests/test_kernels_fast.c" "$src/tests/testutil.c" \
       "${objs[@]}" -lm -o "$d/test_kernels_fast" 2> "$d/link.txt"; then
    echo "FAIL: test_kernels_fast link ($march):"; sed 's/^/  /' "$d/link.txt"; fail=1; continue
  fi
  if qemu-aarch64 -cpu max "$d/test_kernels_fast" > "$d/test.txt" 2>&1 && grep -q 'checks, 0 failures' "$d/test.txt"; then
    echo "ok: $march: $(grep 'checks, 0 failures' "$d/test.txt")"
  else
    echo "FAIL: test_kernels_fast under qemu-aarch64 ($march):"; tail -20 "$d/test.txt" | sed 's/^/  /'; fail=1
  fi
  if ! aarch64-linux-gnu-gcc $flags -march=$march $inc -static "$src"/tools/*.c "${objs[@]}" -lm -o "$d/tinyarena" 2> "$d/link.txt"; then
    echo "FAIL: CLI link ($march):"; sed 's/^/  /' "$d/link.txt"; fail=1; continue
  fi
  while read -r model cases; do
    flat=$(echo "$model" | sed 's|/|__|g')
    for c in ${cases//,/ }; do
      dir="$data/models/reference/cases/$flat/$c"
      ins=(); for f in $(ls "$dir"/input*.raw | sort -V); do ins+=(--input "$f"); done
      rm -rf "$d/out"; mkdir -p "$d/out"
      if ! qemu-aarch64 -cpu max "$d/tinyarena" run "$data/models/$model.tflite" "${ins[@]}" --outputs "$d/out" --runs 1 \
           > "$d/run.txt" 2>&1; then
        echo "FAIL: $model $c ($march):"; sed 's/^/  /' "$d/run.txt"; fail=1; continue
      fi
      ok=1
      for want in "$dir"/tflm_output*.bin; do
        k=$(basename "$want" | sed 's/tflm_output\([0-9]*\)\.bin/\1/')
        cmp -s "$want" "$d/out/output$k.bin" || { echo "FAIL: $model $c ($march): output$k differs from TFLM"; fail=1; ok=0; }
      done
      [ $ok = 1 ] && echo "ok: $march: $model $c byte-identical to TFLM"
    done
  done <<'LIST'
tflm/person_detect person,no_person
mlperf_tiny/vww_96_int8 image
mlperf_tiny/kws_ref_model_int8 image
mlperf_tiny/ic_pretrainedResnet_quant image
mlperf_tiny/ad01_int8 random
tflm/micro_speech_quantized random
tflm/keyword_scrambled random
LIST
done
exit $fail
