#!/usr/bin/env bash
# Installs what tinyarena's build and tests need beyond gcc, make and cmake,
# with apt-get, only when missing.  Safe to run repeatedly.
#   clang + libclang-rt-14-dev : the libFuzzer target (scripts/fuzz.sh)
#   libxml2-utils (xmllint)    : SVG/HTML well-formedness tests (tests/viz_check.sh)
#   python3                    : the viz checks (JSON, XML, PNG decoding; stdlib only)
#   chromium                   : one headless rendering check of the HTML report
#                                (its fonts come with fontconfig); about 100 MB, so
#                                outside CI TA_NO_CHROMIUM=1 skips it and the check SKIPs
#   gcc-multilib               : cc -m32, for the 32-bit run of emitted const blobs
#                                (tests/header_abi.sh); where it conflicts with the
#                                aarch64 cross compiler (Debian 12), gcc-N-multilib
#   pkg-config                 : the pkg-config consumer build (tests/consumer.sh)
#   gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm
#                              : the bare-metal Cortex-M firmware and its emulated
#                                runs (examples/cortex_m, tests/cortex_m.sh)
#   valgrind                   : bench_run's instruction counts (callgrind)
#   gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user
#                              : the Arm64 (NEON) build run under qemu-aarch64
#                                (tests/arm64.sh); qemu-user's qemu-i386 also runs
#                                header_abi's 32-bit programs on kernels without
#                                32-bit support
set -euo pipefail
need=()
command -v clang >/dev/null 2>&1 || need+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v python3 >/dev/null 2>&1 || need+=(python3)
echo 'int main(void) { return 0; }' | cc -m32 -x c - -o /dev/null >/dev/null 2>&1 || need+=(gcc-multilib)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v arm-none-eabi-gcc >/dev/null 2>&1 || need+=(gcc-arm-none-eabi)
dpkg -s libnewlib-arm-none-eabi >/dev/null 2>&1 || need+=(libnewlib-arm-none-eabi)
command -v qemu-system-arm >/dev/null 2>&1 || need+=(qemu-system-arm)
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need+=(gcc-aarch64-linux-gnu)
# its C library headers: only recommended by the compiler, and without them
# <stdint.h> comes from the host (a 32-bit uintptr_t: tests/arm64.sh fails)
dpkg -s libc6-dev-arm64-cross >/dev/null 2>&1 || need+=(libc6-dev-arm64-cross)
{ command -v qemu-aarch64 && command -v qemu-i386; } >/dev/null 2>&1 || need+=(qemu-user)
if [ "${CI:-}" = true ] || [ "${TA_NO_CHROMIUM:-0}" != 1 ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
fi
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${need[*]}"
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
if ! $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"; then
  # Debian 12: the gcc-multilib meta package conflicts with the aarch64
  # cross compiler (gcc-12-aarch64-linux-gnu: "Conflicts: gcc-multilib"),
  # but the versioned gcc-N-multilib it pulls in does not, and it is all
  # `cc -m32` needs.  Retry with that one.
  v=$(cc -dumpversion 2>/dev/null | cut -d. -f1)
  [ -n "$v" ] || exit 1
  retry=()
  for p in "${need[@]}"; do
    if [ "$p" = gcc-multilib ]; then retry+=("gcc-$v-multilib"); else retry+=("$p"); fi
  done
  echo "setup: retrying with ${retry[*]}"
  $SUDO apt-get install -y -qq --no-install-recommends "${retry[@]}"
fi
