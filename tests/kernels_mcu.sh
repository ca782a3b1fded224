#!/usr/bin/env bash
# The fast int8 kernels against the reference kernels ON the Cortex-M targets:
# tests/test_kernels_fast.c (seeded random shapes, requantisation, the
# armv6-m high multiply) cross-compiled with the kernels' firmware flags
# (examples/cortex_m/build.sh: -O2 for *_fast.c, -Os for the rest) and run
# bare-metal under QEMU, for the Cortex-M4F (the DSP paths: SXTB16, SMLAD,
# SMLABB/SMLATT, USADA8) and as armv6-m code on the M3 with unaligned
# accesses trapped (the M0 paths).  The host run of the same test never
# executes those paths.  Needs gcc-arm-none-eabi, libnewlib-arm-none-eabi and
# qemu-system-arm: SKIP without them outside CI, FAIL under CI.  TA_MCU_CPUS
# (default "m4 m0") runs only those.
set -u
src="${TINYARENA_SRC:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
skip() { if [ "${CI:-}" = true ]; then echo "FAIL: $1 under CI"; exit 1; fi; echo "SKIP: $1"; exit 0; }
for t in arm-none-eabi-gcc qemu-system-arm; do
  command -v $t > /dev/null || skip "$t not found (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm)"
done
fail=0
for cpu in ${TA_MCU_CPUS:-m4 m0}; do
  case $cpu in
    m4) machine=mps2-an386; arch="-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard"; defs= ;;
    m0) machine=mps2-an385; arch="-mcpu=cortex-m0 -mfloat-abi=soft"; defs=-DBOARD_UNALIGN_TRAP ;;
  esac
  base="$arch -mthumb -std=c11 -g -ffunction-sections -fdata-sections -Wall -Wextra -Wshadow -Wno-unused-parameter -Werror"
  inc="-I$src/include -I$src/src -I$src/tests -I$src/examples/cortex_m"
  mkdir -p "$tmp/$cpu"
  # the kernels and what they call (status text), as the firmware builds them
  objs=()
  for f in "$src"/src/runtime/kernels/*.c "$src"/src/common/status.c; do
    o="$tmp/$cpu/$(basename "$f" .c).o"
    case $f in *_fast.c) opt=-O2 ;; *) opt=-Os ;; esac
    arm-none-eabi-gcc $base $opt $inc -c "$f" -o "$o" || { echo "FAIL: $f does not cross-compile for $cpu"; fail=1; continue 2; }
    objs+=("$o")
  done
  # -Wno-format: the host test prints int32_t with %d; here int32_t is long
  if ! arm-none-eabi-gcc $base -Os -Wno-format $defs $inc "$src/tests/test_kernels_fast.c" "$src/tests/kernels_mcu_shim.c" \
       "$src/examples/cortex_m/startup.c" "${objs[@]}" -nostartfiles --specs=nano.specs \
       -T "$src/examples/cortex_m/cortex_m.ld" -Wl,--gc-sections -lm -o "$tmp/$cpu/test.elf" > "$tmp/$cpu/link.txt" 2>&1; then
    echo "FAIL: link for $cpu:"; sed 's/^/  /' "$tmp/$cpu/link.txt"; fail=1; continue
  fi
  timeout "${TA_MCU_TIMEOUT:-600}" qemu-system-arm -M $machine -nographic -monitor none -serial none \
    -semihosting-config enable=on,target=native -kernel "$tmp/$cpu/test.elf" > "$tmp/$cpu/out.txt" 2>&1
  rc=$?
  if [ $rc -ne 0 ] || ! grep -q '^test_kernels_fast: [0-9]* checks, 0 failures' "$tmp/$cpu/out.txt"; then
    echo "FAIL: test_kernels_fast on $cpu (exit $rc):"; tail -20 "$tmp/$cpu/out.txt" | sed 's/^/  /'; fail=1
  else
    echo "ok: $cpu: $(tail -1 "$tmp/$cpu/out.txt")"
  fi
done
exit $fail
