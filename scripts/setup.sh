#!/usr/bin/env bash
# Installs what tinyarena's build and tests need beyond gcc, make and cmake,
# with apt-get, only when missing.  Safe to run repeatedly.
#   clang + libclang-rt-14-dev : the libFuzzer target (scripts/fuzz.sh)
#   libxml2-utils (xmllint)    : SVG/HTML well-formedness tests
#   chromium                   : one headless rendering check of the HTML report
set -euo pipefail
need=()
command -v clang >/dev/null 2>&1 || need+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
if [ "${TA_NEED_CHROMIUM:-0}" = 1 ]; then
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
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
