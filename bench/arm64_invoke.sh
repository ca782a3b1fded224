#!/usr/bin/env bash
# Instructions per invoke of the Arm64 build under qemu-aarch64 (README,
# "Speed"): cross-compiles the library and the CLI (static, -O2) for one
# -march, runs `tinyarena run MODEL --runs 1` and `--runs 3` under
# `qemu-aarch64 -cpu max` with QEMU's translation-block log piped into
# bench/qemu_tb_count.py, and prints half the difference: the instructions
# of one invoke (and its reset), without loading and planning.
#   bench/arm64_invoke.sh MARCH MODEL.tflite INPUT.raw [SRC_DIR]
# MARCH: armv8-a (NEON by SMULL) or armv8.2-a+dotprod (SDOT); SRC_DIR: the
# tree to build (default this one; a `git archive` of an older commit gives
# the "before").  Needs gcc-aarch64-linux-gnu, qemu-user and python3.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 MARCH MODEL.tflite INPUT.raw [SRC_DIR]" >&2; exit 2; }
march=$1 model=$2 input=$3
here=$(cd "$(dirname "$0")" && pwd)
src=${4:-$(cd "$here/.." && pwd)}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
objs=()
for f in $(cd "$src" && find src tools -name '*.c' | sort); do
  o="$tmp/$(echo "$f" | tr / _ | sed 's/\.c$/.o/')"
  aarch64-linux-gnu-gcc -std=c11 -O2 -march="$march" -I"$src/include" -I"$src/src" -I"$src/tools" -c "$src/$f" -o "$o"
  objs+=("$o")
done
aarch64-linux-gnu-gcc -static "${objs[@]}" -lm -o "$tmp/tinyarena"
count() {
  mkfifo "$tmp/log"
  python3 "$here/qemu_tb_count.py" < "$tmp/log" > "$tmp/n" &
  qemu-aarch64 -cpu max -d in_asm,exec,nochain -D "$tmp/log" "$tmp/tinyarena" run "$model" --input "$input" \
    --runs "$1" > /dev/null
  wait
  rm -f "$tmp/log"
  cat "$tmp/n"
}
one=$(count 1) three=$(count 3)
echo "$(basename "$model") $march: $(( (three - one) / 2 )) instructions per invoke"
