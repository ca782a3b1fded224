#!/usr/bin/env bash
# tinyarena in a user's CMake project (issue 15): `cmake --install` gives a
# package; tests/consumer is configured three ways (find_package on the
# install, add_subdirectory (and FetchContent), pkg-config), built, and run on hello_world_int8
# to TFLM's own output bytes; then a Cortex-M4 cross build of tinyarena is
# installed and a firmware consumer links tinyarena::runtime from it, with
# no planner code in the image.
set -u
src="${TINYARENA_SRC:?}"
data="${TINYARENA_DATA:-$src/../shared}"
cmake="${TA_CMAKE:-cmake}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
quiet() { "$@" > "$tmp/log" 2>&1 || { tail -30 "$tmp/log"; return 1; }; }
no_extras="-DTINYARENA_BUILD_TESTS=OFF -DTINYARENA_BUILD_BENCH=OFF -DTINYARENA_BUILD_EXAMPLES=OFF"

model="$data/models/tflm/hello_world_int8.tflite"
case="$data/models/reference/cases/tflm__hello_world_int8/random"
have_data=1
if [ ! -f "$model" ] || [ ! -f "$case/input0.raw" ]; then
  [ "${CI:-}" = true ] && { echo "FAIL: shared data missing under CI"; exit 1; }
  echo "SKIP (runs): shared data not found"; have_data=0
fi
run_consumer() { # name, build dir
  [ $have_data = 1 ] || return 0
  out=$("$2/consumer" "$model" "$case/input0.raw" "$tmp/$1.bin") && cmp -s "$tmp/$1.bin" "$case/tflm_output0.bin" \
    && ok "$1: runs, output = TFLM's ($out)" || bad "$1: run or output differs: $out"
}

# 1. build and install
prefix="$tmp/prefix"
if quiet "$cmake" -S "$src" -B "$tmp/ta" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" $no_extras \
   && quiet "$cmake" --build "$tmp/ta" -j2 && quiet "$cmake" --install "$tmp/ta"; then
  ok "tinyarena builds and installs"
else
  bad "tinyarena build/install"
fi
libdir=lib; [ -d "$prefix/lib64" ] && libdir=lib64
for f in "$libdir/cmake/tinyarena/tinyarenaConfig.cmake" "$libdir/cmake/tinyarena/tinyarenaConfigVersion.cmake" \
         "$libdir/cmake/tinyarena/tinyarenaTargets.cmake" "$libdir/pkgconfig/tinyarena.pc" \
         "$libdir/pkgconfig/tinyarena-runtime.pc" "$libdir/libtinyarena.a" "$libdir/libtinyarena_runtime.a" \
         include/tinyarena/runtime.h bin/tinyarena; do
  [ -e "$prefix/$f" ] && ok "installed $f" || bad "not installed: $f"
done
"$prefix/bin/tinyarena" --help > /dev/null 2>&1 && ok "installed CLI runs" || bad "installed CLI"

# 2. find_package on the install
if quiet "$cmake" -S "$src/tests/consumer" -B "$tmp/c-pkg" -DTA_MODE=package -DCMAKE_PREFIX_PATH="$prefix" \
   && quiet "$cmake" --build "$tmp/c-pkg" -j2; then ok "find_package consumer builds"; run_consumer package "$tmp/c-pkg"
else bad "find_package consumer"; fi
# a version the package does not provide is refused
mkdir -p "$tmp/c-ver"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(v LANGUAGES C)\nfind_package(tinyarena 9.0 CONFIG REQUIRED)\n' > "$tmp/c-ver/CMakeLists.txt"
if "$cmake" -S "$tmp/c-ver" -B "$tmp/c-ver/b" -DCMAKE_PREFIX_PATH="$prefix" > "$tmp/log" 2>&1; then bad "version 9.0 accepted"
else grep -q "tinyarenaConfigVersion\|version" "$tmp/log" && ok "find_package(tinyarena 9.0) refused" || bad "version check: $(tail -3 "$tmp/log")"; fi

# 3. add_subdirectory of the source tree
if quiet "$cmake" -S "$src/tests/consumer" -B "$tmp/c-sub" -DTA_MODE=subdir -DTA_SOURCE_DIR="$src" \
   && quiet "$cmake" --build "$tmp/c-sub" -j2; then ok "add_subdirectory consumer builds"; run_consumer subdir "$tmp/c-sub"
else bad "add_subdirectory consumer"; fi

# 3b. FetchContent (from the same source tree)
if quiet "$cmake" -S "$src/tests/consumer" -B "$tmp/c-fetch" -DTA_MODE=fetch -DTA_SOURCE_DIR="$src" \
   && quiet "$cmake" --build "$tmp/c-fetch" -j2; then ok "FetchContent consumer builds"; run_consumer fetch "$tmp/c-fetch"
else bad "FetchContent consumer"; fi

# 4. pkg-config
if command -v pkg-config > /dev/null; then
  if PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" quiet "$cmake" -S "$src/tests/consumer" -B "$tmp/c-pc" -DTA_MODE=pkgconfig \
     && quiet "$cmake" --build "$tmp/c-pc" -j2; then ok "pkg-config consumer builds"; run_consumer pkgconfig "$tmp/c-pc"
  else bad "pkg-config consumer"; fi
  v=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" pkg-config --modversion tinyarena)
  [ -n "$v" ] && ok "pkg-config --modversion tinyarena: $v" || bad "pkg-config version"
else
  [ "${CI:-}" = true ] && bad "pkg-config missing under CI" || echo "SKIP: pkg-config not installed"
fi

# 5. Cortex-M4 cross build through the package
if command -v arm-none-eabi-gcc > /dev/null; then
  tc="$src/tests/consumer/arm-none-eabi.cmake"
  aprefix="$tmp/prefix-arm"
  if quiet "$cmake" -S "$src" -B "$tmp/ta-arm" -DCMAKE_TOOLCHAIN_FILE="$tc" -DCMAKE_BUILD_TYPE=MinSizeRel \
       -DCMAKE_INSTALL_PREFIX="$aprefix" $no_extras \
     && quiet "$cmake" --build "$tmp/ta-arm" -j2 && quiet "$cmake" --install "$tmp/ta-arm"; then
    ok "arm-none-eabi build and install (no CLI: $( [ -e "$aprefix/bin/tinyarena" ] && echo present || echo absent))"
  else bad "arm-none-eabi build"; fi
  if quiet "$cmake" -S "$src/tests/consumer" -B "$tmp/c-fw" -DCMAKE_TOOLCHAIN_FILE="$tc" -DTA_MODE=firmware \
       -DCMAKE_PREFIX_PATH="$aprefix" -DCMAKE_BUILD_TYPE=MinSizeRel && quiet "$cmake" --build "$tmp/c-fw" -j2; then
    elf="$tmp/c-fw/consumer_fw"
    arm-none-eabi-readelf -h "$elf" 2>/dev/null | grep -q "Machine:.*ARM" && ok "firmware consumer links for ARM" \
      || bad "firmware is not an ARM ELF"
    arm-none-eabi-nm "$elf" | grep -q ta_runtime_invoke && ok "firmware has the runtime" || bad "no runtime in firmware"
    if arm-none-eabi-nm "$elf" | grep -q 'ta_strategy_\|ta_plan_run'; then bad "planner code in the firmware"
    else ok "no planner code in the firmware"; fi
  else bad "firmware consumer"; fi
else
  [ "${CI:-}" = true ] && bad "arm-none-eabi-gcc missing under CI" || echo "SKIP: arm-none-eabi-gcc not installed"
fi
exit $fail
