#!/usr/bin/env bash
# Builds the bare-metal firmware for one model and one input case, runs it on
# an emulated Cortex-M (QEMU's Arm MPS2 boards) and writes what it printed
# and each output's bytes:
#
#   examples/cortex_m/build.sh MODEL.tflite CASE_DIR OUTDIR [--rewrite R] [--cpu m0|m3|m4|m7]
#                              [--align-rule R] [--stack BYTES] [--flash BYTES] [--ram BYTES] [--rederive] [--small-kernels]
#                              [--patch-overhead PCT] [--no-pw-packs]
#
# --rewrite: the plan's rewrites, default all (as `tinyarena plan`); none: TFLM's rules.
# --patch-overhead goes to `tinyarena plan --header` (default 10: the header
# runs the patch stages `plan` chooses; 0: layer by layer).
# --align-rule goes to `tinyarena plan --header` (default: arch, or tflm with
# --rewrite none);
# --cpu: m4 (default) Cortex-M4F on mps2-an386, m3 Cortex-M3 on mps2-an385,
# m7 Cortex-M7 on mps2-an500, m0 armv6-m code on mps2-an385 (see below).
# --stack sets the stack reserved (default 16 KB, 48 KB with --rederive); --flash and --ram make the
# link fail unless the image fits a part with that much flash and RAM (the
# boards have 4 MB of each).
# --no-pw-packs: leave out the header's pre-unpacked 1x1 weights
# (tinyarena/pw_pack.h; on the DSP and armv6-m cores they cost flash, twice
# the 1x1 layers' weight bytes, and save the kernel's unpacking or pair
# packing and weight sums at every call).
# --rederive: after the run, the firmware re-derives the host's op constants
# blob on the target through the work-block path (import and prepare, record
# by record; it prints blob_rederived 1) -- the portability proof
# tests/cortex_m.sh runs.  It links the importer and every op's prepare;
# without it the firmware is what a user's gets (init from the init table
# only), and the link is checked to hold none of the work-block path.
# CASE_DIR holds input0.raw, input1.raw, ... (the shared reference cases);
# when it also holds TFLM's tflm_output<k>.bin, the outputs are compared and
# a difference fails.  OUTDIR gets fw.elf, fw.map, plan.txt, qemu.txt,
# output<k>.bin and figures.txt (sizes, arena, instruction count).
#
# Steps: cross-compile the runtime part of the library (runtime, kernels,
# TFLite reader, graph, lifetimes, requests -- no planner strategy) with
# arm-none-eabi-gcc; emit the budget header with the host CLI
# (TINYARENA_CLI, default build/tinyarena); turn the model and the input
# into const arrays; link with newlib-nano's libc and libm (semihosting: startup.c); check
# that no planner and no malloc is linked; run it in QEMU under -icount (one
# instruction per ns of virtual time) with a timeout.
#
# Environment: TINYARENA_CLI, TA_MCU_LIBDIR (where the cross-compiled
# library is cached, default OUTDIR/lib), TA_MCU_TIMEOUT (seconds, default 120),
# TA_MCU_KERNELS (fast, the default, or reference: TFLM's loops, for comparison).
# Exit codes: 0 ok, 1 failure, 2 usage, 3 a tool is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
usage() { echo "usage: $0 MODEL.tflite CASE_DIR OUTDIR [--rewrite R] [--align-rule R] [--cpu m0|m3|m4|m7] [--stack B] [--flash B] [--ram B] [--rederive] [--small-kernels] [--fast-region B] [--patch-overhead PCT] [--no-pw-packs]" >&2; exit 2; }
[ $# -ge 3 ] || usage
model=$1 case_dir=$2 out=$3; shift 3
rewrite=all cpu=m4 ldsyms= rederive=0 alignrule= kopt=-O2 regions= mainsrc=main.c patchpct= defs_pw=
while [ $# -gt 0 ]; do
  case $1 in
    --rewrite) rewrite=${2:?}; shift 2 ;;
    --align-rule) alignrule=${2:?}; shift 2 ;;
    --patch-overhead) patchpct=${2:?}; shift 2 ;;
    --cpu) cpu=${2:?}; shift 2 ;;
    --stack) ldsyms="$ldsyms -Wl,--defsym=STACK_BYTES=${2:?}"; shift 2 ;;
    --flash) ldsyms="$ldsyms -Wl,--defsym=FLASH_BYTES=${2:?}"; shift 2 ;;
    --ram) ldsyms="$ldsyms -Wl,--defsym=RAM_BYTES=${2:?}"; shift 2 ;;
    --rederive) rederive=1; shift ;;
    --small-kernels) kopt=-Os; shift ;;
    --no-pw-packs) defs_pw=-DMODEL_BUDGET_NO_PW_PACKS; shift ;;
    # two memories: a FAST region of B bytes in the RAM at 0x20000000 and a
    # SLOW one in the board's 16 MB PSRAM at 0x21000000 (cortex_m.ld's .psram)
    --fast-region) regions="--region FAST:${2:?} --region SLOW:16M"; mainsrc=main_regions.c; shift 2 ;;
    *) usage ;;
  esac
done
# m0: armv6-m code (no unaligned access, no hardware divide, Thumb-1) for a
# Cortex-M0/M0+, run on the AN385's Cortex-M3 -- QEMU has no MPS2 image
# with an M0 -- with every unaligned access trapped, as an M0 would fault.
defs=
case $cpu in
  m0) machine=mps2-an385; name="Cortex-M0 code on mps2-an385 (M3, unaligned accesses trap)"; arch="-mcpu=cortex-m0 -mfloat-abi=soft"; defs=-DBOARD_UNALIGN_TRAP ;;
  m3) machine=mps2-an385; name="Cortex-M3 (mps2-an385)"; arch="-mcpu=cortex-m3 -mfloat-abi=soft" ;;
  m4) machine=mps2-an386; name="Cortex-M4F (mps2-an386)"; arch="-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard" ;;
  m7) machine=mps2-an500; name="Cortex-M7 (mps2-an500)"; arch="-mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard" ;;
  *) usage ;;
esac
for t in arm-none-eabi-gcc arm-none-eabi-nm arm-none-eabi-size qemu-system-arm; do
  command -v $t > /dev/null || { echo "$0: $t not found (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm)" >&2; exit 3; }
done
[ -f "$(arm-none-eabi-gcc $arch -mthumb -print-file-name=libc_nano.a)" ] \
  || { echo "$0: arm-none-eabi-gcc cannot link against newlib (apt-get install libnewlib-arm-none-eabi)" >&2; exit 3; }
cli=${TINYARENA_CLI:-$src/build/tinyarena}
[ -x "$cli" ] || { echo "$0: host CLI $cli not found (build the project, or set TINYARENA_CLI)" >&2; exit 1; }
[ -f "$model" ] || { echo "$0: no model $model" >&2; exit 1; }
ls "$case_dir"/input*.raw > /dev/null 2>&1 || { echo "$0: no input*.raw in $case_dir" >&2; exit 1; }
mkdir -p "$out/gen"
out=$(cd "$out" && pwd)

cflags="$arch -mthumb -std=c11 -Os -g -ffunction-sections -fdata-sections
        -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Werror"
# The fast kernels (src/runtime/kernels/*_fast.c) are built for speed: -O2
# inlines the dot-product micro-kernels and the requantisation and keeps
# their pointers in registers; everything else stays -Os.  --small-kernels
# builds them -Os too: the size-first option (person_detect on the M4F:
# 8.7 KB less code, 6.6% more instructions; the assembly paths stay).
# TA_MCU_KERNELS=reference starts the firmware on the reference int8 kernels
# (the "before" of the instruction counts).
case ${TA_MCU_KERNELS:-fast} in
  fast) ;;
  reference) cflags="$cflags -DTA_KERNEL_IMPL_DEFAULT=TA_KERNEL_IMPL_REFERENCE" ;;
  *) echo "$0: TA_MCU_KERNELS must be fast or reference" >&2; exit 2 ;;
esac
# 1. The budget header: plan, offsets, op constants blob, init table (the
#    host CLI; patch stages as `plan` chooses them, --patch-overhead 10).
"$cli" plan "$model" --strategy best --rewrite "$rewrite" ${alignrule:+--align-rule "$alignrule"} $regions ${patchpct:+--patch-overhead "$patchpct"} \
  --header "$out/gen/model_budget.h" > "$out/plan.txt" \
  || { echo "FAIL: tinyarena plan --header $model" >&2; exit 1; }
patches=0
grep -q '^#define MODEL_BUDGET_PATCH_STAGES ' "$out/gen/model_budget.h" && patches=1
# Without --rederive nothing runs a prepare (init reads the init table): the
# library is built without them (TA_OPS_NO_PREPARE, src/runtime/ops/op.h), in
# its own cache directory; and without the band loop and the ops' band
# geometry unless the header's plan runs patch stages (TA_OPS_PATCHES).
libmode=
if [ $rederive = 0 ]; then
  cflags="$cflags -DTA_OPS_NO_PREPARE"
  if [ $patches = 1 ]; then cflags="$cflags -DTA_OPS_PATCHES"; libmode=-patch; fi
else libmode=-rederive; fi
kflags=$(echo $cflags | sed "s/ -Os / $kopt /")

# 2. The library's runtime part, cached per CPU and mode: rebuilt when a source or a
#    header is newer than the archive.
libdir=${TA_MCU_LIBDIR:-$out/lib}/$cpu$libmode
lib=$libdir/libtinyarena_mcu.a
lib_sources=$(cd "$src" && ls src/common/*.c src/core/budget.c src/core/request.c src/graph/*.c src/tflite/*.c \
                               src/runtime/runtime*.c src/runtime/ops/*.c src/runtime/kernels/*.c)
stale=0
if [ ! -f "$lib" ] || [ "$(cat "$libdir/flags" 2>/dev/null)" != "$(echo $cflags) | $kflags" ]; then stale=1
elif [ -n "$(cd "$src" && find src include -newer "$lib" \( -name '*.c' -o -name '*.h' \) | head -1)" ]; then stale=1; fi
if [ $stale = 1 ]; then
  rm -rf "$libdir"; mkdir -p "$libdir/obj"
  echo "$lib_sources" | (cd "$src" && xargs -P 2 -I{} sh -c \
    'case {} in src/runtime/kernels/*_fast.c) f="'"$kflags"'" ;; *) f="'"$(echo $cflags)"'" ;; esac;
     arm-none-eabi-gcc $f -Iinclude -Isrc -c {} -o "'"$libdir"'/obj/$(echo {} | tr / _ | sed "s/\.c$/.o/")"') \
    || { echo "FAIL: the library does not cross-compile for $name" >&2; exit 1; }
  arm-none-eabi-ar rcs "$lib" "$libdir"/obj/*.o
  echo "$(echo $cflags) | $kflags" > "$libdir/flags"
fi

# 3. The model and the input bytes as const arrays (flash), 16-byte aligned.
c_array() { # NAME FILE
  printf 'const _Alignas(16) unsigned char %s[%u] = {\n' "$1" "$(wc -c < "$2")"
  od -An -v -tx1 "$2" | sed 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'
  printf '};\n'
}
inputs=$(ls "$case_dir"/input*.raw | sort -V)
n_in=$(echo "$inputs" | wc -l)
{
  echo "/* Generated by examples/cortex_m/build.sh from $(basename "$model") and $(basename "$case_dir"). */"
  echo '#include "model_data.h"'
  c_array model_data "$model"
  k=0
  for f in $inputs; do c_array "input$k" "$f"; k=$((k+1)); done
  printf 'const unsigned char *const input_data[MODEL_DATA_INPUTS] = {'
  for ((k = 0; k < n_in; k++)); do printf 'input%d, ' $k; done
  printf '};\nconst unsigned input_bytes[MODEL_DATA_INPUTS] = {'
  for f in $inputs; do printf '%u, ' "$(wc -c < "$f")"; done
  printf '};\n'
} > "$out/gen/model_data.c"
cat > "$out/gen/model_data.h" <<EOF
/* Generated by examples/cortex_m/build.sh. */
#ifndef MODEL_DATA_H
#define MODEL_DATA_H
#define MODEL_DATA_NAME "$(basename "$model") ($(basename "$case_dir"), rewrites: $rewrite${alignrule:+, align: $alignrule})"
#define MODEL_DATA_BYTES $(wc -c < "$model")u
#define MODEL_DATA_INPUTS $n_in
extern const unsigned char model_data[MODEL_DATA_BYTES];
extern const unsigned char *const input_data[MODEL_DATA_INPUTS];
extern const unsigned input_bytes[MODEL_DATA_INPUTS];
#endif
EOF

# 4. Link: no start files (startup.c has the vector table, the reset
#    handler and the semihosting calls), newlib-nano's libc and libm, unused
#    sections dropped.
# --rederive: room for the re-derivation's work block on the stack (main.c's
# 40 KB block), unless --stack sets it
if [ $rederive = 1 ]; then
  defs="$defs -DTA_EXAMPLE_REDERIVE"
  case "$ldsyms" in *STACK_BYTES=*) ;; *) ldsyms="$ldsyms -Wl,--defsym=STACK_BYTES=49152" ;; esac
fi
arm-none-eabi-gcc $cflags -DBOARD_CPU="\"$name\"" $defs $defs_pw -I"$src/include" -I"$out/gen" -I"$here" \
  "$here/$mainsrc" "$here/startup.c" "$out/gen/model_data.c" "$lib" \
  -nostartfiles --specs=nano.specs -T "$here/cortex_m.ld" \
  -Wl,--gc-sections -Wl,-Map="$out/fw.map" $ldsyms -lm -o "$out/fw.elf" \
  || { echo "FAIL: link for $name" >&2; exit 1; }

# 5. What is linked: no planner strategy, no allocator.
syms=$(arm-none-eabi-nm "$out/fw.elf")
if echo "$syms" | grep -E ' (ta_plan_run|ta_plan_bound|ta__?strategy_[a-z_]+|ta_runtime_use_strategy)$'; then
  echo "FAIL: planner code is linked into the firmware" >&2; exit 1
fi
if echo "$syms" | grep -E ' _?(malloc|_malloc_r|calloc|_calloc_r|realloc|_realloc_r)$'; then
  echo "FAIL: an allocator is linked into the firmware" >&2; exit 1
fi
# Without --rederive the firmware initialises from the init table only
# (ta_runtime_options_for_budget): none of the work-block path is linked.
if [ $rederive = 0 ] && echo "$syms" | grep -E ' (ta_tflite_import|ta_graph_init|ta_lifetime_analyze|ta_rewrite_graph|ta_rewrite_buffers|ta__work_path_full|ta__op_prepare_in)$'; then
  echo "FAIL: the work-block path (importer, lifetimes, rewrites, prepare) is linked into the firmware" >&2; exit 1
fi

# The band loop (runtime_patch.c) only when the header's plan runs patch stages.
if [ $patches = 0 ] && [ $rederive = 0 ] && echo "$syms" | grep -E ' (ta__rt_patch_invoke|ta__op_invoke_band)$'; then
  echo "FAIL: the patch band loop is linked into a firmware whose header has no patch stage" >&2; exit 1
fi

# 6. Sizes.  The runtime alone: the library's .text and .rodata input
#    sections that the link kept (fw.map); the C library's part: newlib-nano's
#    libc and libm and libgcc (memcpy, float and 64-bit division helpers).
read -r text data bss < <(arm-none-eabi-size -B "$out/fw.elf" | awk 'NR == 2 { print $1, $2, $3 }')
read -r rt_text rt_rodata sys_text < <(awk '
  function hex(s,   v, i) { v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
  function add(sec, size, file) {
    if (file ~ /libtinyarena_mcu\.a/) {
      if (sec ~ /^\.text/) t += hex(size); else if (sec ~ /^\.rodata/) r += hex(size)
    } else if (file ~ /\/lib(gcc|c_nano|m|g_nano)\.a\(/) s += hex(size)
  }
  /^Linker script and memory map/ { kept = 1 }
  kept && /^ \.(text|rodata)/ {
    if (NF >= 4) add($1, $3, $4); else { sec = $1; getline; if (NF >= 3) add(sec, $2, $3) }
  }
  END { print t + 0, r + 0, s + 0 }' "$out/fw.map")
consts=$(awk '/_CONST_BYTES [0-9]/ { sub(/u$/, "", $3); print $3 }' "$out/gen/model_budget.h")
# the 1x1 weight packs' flash (tinyarena/pw_pack.h): DSP and armv6-m cores, unless --no-pw-packs
packs=0
case $cpu in m0|m4|m7) [ -z "$defs_pw" ] && [ "$mainsrc" = main.c ] && packs=$(awk -v want=$([ $cpu = m0 ] && echo __ARM_ARCH_6M__ || echo __ARM_FEATURE_DSP) '
  /^#(el)?if defined\(/ { blk = $2; sub(/^defined\(/, "", blk); sub(/\)$/, "", blk) }
  blk == want && $2 == "MODEL_BUDGET_PW_PACK_BYTES" { sub(/u$/, "", $3); print $3 }' "$out/gen/model_budget.h") ;; esac
packs=${packs:-0}

# 7. Run.  -icount shift=0: virtual time advances 1 ns per instruction, so
#    SysTick (25 MHz) ticks once every 40 instructions.
set +e
timeout "${TA_MCU_TIMEOUT:-120}" qemu-system-arm -M "$machine" -nographic -monitor none -serial none \
  -semihosting-config enable=on,target=native -icount shift=0 -kernel "$out/fw.elf" > "$out/qemu.txt" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then
  [ $rc = 124 ] && echo "FAIL: QEMU timed out" >&2
  echo "FAIL: the firmware exited with $rc on $name:" >&2; sed 's/^/  /' "$out/qemu.txt" >&2; exit 1
fi
grep -q '^done$' "$out/qemu.txt" || { echo "FAIL: no 'done' from the firmware" >&2; cat "$out/qemu.txt" >&2; exit 1; }
val() { awk -v k="$1" '$1 == k { print $2 }' "$out/qemu.txt"; }
invoke_ticks=$(val invoke_ticks) init_ticks=$(val init_ticks)
rm -f "$out"/output*.bin
while read -r key n hex; do
  k=${key#output}
  printf "$(echo "$hex" | sed 's/../\\x&/g')" > "$out/output$k.bin"
  [ "$(wc -c < "$out/output$k.bin")" = "$n" ] || { echo "FAIL: output$k: expected $n bytes" >&2; exit 1; }
done < <(grep -E '^output[0-9]+ ' "$out/qemu.txt")

cat > "$out/figures.txt" <<EOF
cpu=$name
model=$(basename "$model")
rewrite=$rewrite
flash_text=$text
ram_data=$data
ram_bss=$bss
runtime_text=$rt_text
runtime_rodata=$rt_rodata
libc_libm_libgcc=$sys_text
model_bytes=$(wc -c < "$model")
const_blob_bytes=$consts
pw_pack_bytes=$packs
arena_bytes=$(val arena_bytes)
planned_bytes=$(val planned_bytes)
persistent_bytes=$(val persistent_bytes)
work_bytes=$(val work_bytes)
stack_bytes=$(val stack_bytes)
stack_used_bytes=$(val stack_used_bytes)
init_instructions=$((init_ticks * 40))
invoke_instructions=$((invoke_ticks * 40))
EOF

# 8. Against TFLM, when the case has its outputs.
status=0
for want in "$case_dir"/tflm_output*.bin; do
  [ -f "$want" ] || continue
  k=$(basename "$want" | sed 's/tflm_output\([0-9]*\)\.bin/\1/')
  if cmp -s "$want" "$out/output$k.bin"; then echo "output$k: byte-identical to TFLM"
  else echo "FAIL: output$k differs from TFLM's $want" >&2; status=1; fi
done
echo "$name: $(basename "$model") $(basename "$case_dir") (rewrites: $rewrite${alignrule:+, align: $alignrule}): flash text $text B, data $data B, bss $bss B;" \
     "runtime code $rt_text B + rodata $rt_rodata B; 1x1 weight packs $packs B; arena $(val arena_bytes) B; stack used $(val stack_used_bytes) B;" \
     "invoke $((invoke_ticks * 40)) instructions"
exit $status
