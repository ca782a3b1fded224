#!/bin/sh
# Fuzz the TFLite reader and the FlexBuffer reader with libFuzzer + ASan + UBSan.
#
#   scripts/fuzz.sh [SECONDS]        (default 60)
#
# Builds build/fuzz/fuzz_tflite with clang, seeds build/fuzz/seeds from every
# shared .tflite model (TINYARENA_DATA, default ../shared) and every model
# tests/test_hostile.c builds (libFuzzer cuts seeds to -max_len), keeps the growing corpus in build/fuzz/corpus (not in
# git) and exits non-zero on any finding (crash inputs land in build/fuzz/).
set -eu

budget=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
data=${TINYARENA_DATA:-$root/../shared}
out=$root/build/fuzz
mkdir -p "$out/seeds" "$out/corpus"

# clang with libFuzzer: install only when missing.
probe="$out/probe.c"
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$probe"
if ! command -v clang >/dev/null 2>&1 ||
   ! clang -fsanitize=fuzzer "$probe" -o "$out/probe" >/dev/null 2>&1; then
    echo "fuzz.sh: clang or libFuzzer missing; installing clang libclang-rt-14-dev" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get install -y clang libclang-rt-14-dev
fi

srcs=$(find "$root/src" -name '*.c' | sort)
# shellcheck disable=SC2086
clang -std=c11 -g -O1 -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -Wall -Wextra -Werror -Wno-unused-parameter \
    -I"$root/include" -I"$root/src" \
    "$root/fuzz/fuzz_tflite.c" $srcs -lm -o "$out/fuzz_tflite"
# shellcheck disable=SC2086
clang -std=c11 -g -O1 -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -Wall -Wextra -Werror -Wno-unused-parameter \
    -I"$root/include" -I"$root/src" \
    "$root/fuzz/fuzz_flexbuf.c" $srcs -lm -o "$out/fuzz_flexbuf"

# test_hostile's hand-built models seed it too: the well-formed control flow
# and resource-variable models (IF, WHILE, CALL_ONCE, VAR_HANDLE) and every
# hostile case, so the fuzzer starts next to the ops no shared model has.
# shellcheck disable=SC2086
clang -std=c11 -O1 -I"$root/include" -I"$root/src" -I"$root/tests" \
    "$root/tests/test_hostile.c" "$root/tests/testutil.c" $srcs -lm -o "$out/hostile_gen"
rm -rf "$out/hostile" && mkdir -p "$out/hostile"
"$out/hostile_gen" --write "$out/hostile" >/dev/null
for f in "$out"/hostile/*.tflite; do cp "$f" "$out/seeds/hostile_$(basename "$f")"; done

if [ -d "$data/models" ]; then
    find "$data/models" -name '*.tflite' | while read -r f; do
        cp "$f" "$out/seeds/$(echo "${f#"$data"/models/}" | tr / _)"
    done
else
    echo "fuzz.sh: no shared models at $data/models; starting from an empty corpus" >&2
fi

cd "$out"
# Two thirds of the budget for the model reader, one third for the FlexBuffer
# reader (custom op options); either finding fails.
flex=$((budget / 3)); [ "$flex" -lt 1 ] && flex=1
model=$((budget - flex)); [ "$model" -lt 1 ] && model=1
mkdir -p "$out/corpus_flexbuf"
./fuzz_tflite -max_len=65536 -max_total_time="$model" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/" "$out/corpus" "$out/seeds"
exec ./fuzz_flexbuf -max_len=4096 -max_total_time="$flex" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/flexbuf-" "$out/corpus_flexbuf"
