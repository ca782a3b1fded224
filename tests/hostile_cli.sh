#!/usr/bin/env bash
# Hostile models through the CLI (issue 9): test_hostile --write makes every
# case of tests/test_hostile.c in a temp dir; each goes through `plan`,
# `plan --rewrite all --strategy optimal`, `plan --header`, `plan --svg` and
# `run`.  Every command must exit 0 (a correct result) or 1 with one line on
# stderr -- never a sanitizer report, a crash or more than 5 s.  A case the
# library refuses at import (the validator) must make every command exit 1
# naming the op and tensor; one refused at prepare must make `run` exit 1
# with prepare's line; one that runs must run.
set -u
cli="${TINYARENA_CLI:?}"
gen="${TINYARENA_HOSTILE:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export ASAN_OPTIONS="exitcode=86:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="exitcode=87:print_stacktrace=1:${UBSAN_OPTIONS:-}"

"$gen" --write "$tmp" || { echo "FAIL: test_hostile --write"; exit 1; }
n=0
max_ms=0
while IFS=$'\t' read -r name stage text; do
  m="$tmp/$name.tflite"
  n=$((n + 1))
  for cmd in plan optimal header svg run; do
    case $cmd in
      plan) args=(plan "$m") ;;
      optimal) args=(plan "$m" --rewrite all --strategy optimal) ;;
      header) args=(plan "$m" --header "$tmp/h.h") ;;
      svg) args=(plan "$m" --svg "$tmp/p.svg") ;;
      run) args=(run "$m" --runs 1) ;;
    esac
    t0=$(date +%s%N)
    timeout 10 "$cli" "${args[@]}" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    [ "$ms" -gt "$max_ms" ] && max_ms=$ms
    what="$name: tinyarena ${args[*]/#$tmp\//}"
    if grep -q -e "Sanitizer" -e "runtime error" "$tmp/err"; then bad "$what: sanitizer report"; head -5 "$tmp/err"; continue; fi
    [ "$rc" -eq 124 ] && { bad "$what: timed out"; continue; }
    [ "$ms" -gt 5000 ] && bad "$what: took $ms ms"
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then bad "$what: exit $rc"; head -3 "$tmp/err"; continue; fi
    if [ "$rc" -eq 1 ] && [ "$(wc -l < "$tmp/err")" -ne 1 ]; then bad "$what: exit 1 without exactly one line"; head -3 "$tmp/err"; continue; fi
    case $stage in
      import)
        [ "$rc" -eq 1 ] && grep -qF -- "$text" "$tmp/err" || bad "$what: expected exit 1 with '$text', got $rc: $(head -1 "$tmp/err")" ;;
      prepare)
        if [ "$cmd" = run ]; then
          [ "$rc" -eq 1 ] && grep -qF -- "$text" "$tmp/err" || bad "$what: expected exit 1 with '$text', got $rc: $(head -1 "$tmp/err")"
        fi ;;
      invoke)
        if [ "$cmd" = run ]; then
          [ "$rc" -eq 1 ] && grep -qF -- "$text" "$tmp/err" || bad "$what: expected exit 1 with '$text', got $rc: $(head -1 "$tmp/err")"
        fi ;;
      runs)
        [ "$rc" -eq 0 ] || bad "$what: expected success, got $rc: $(head -1 "$tmp/err")" ;;
    esac
  done
done < "$tmp/cases.tsv"
[ "$n" -ge 30 ] || bad "only $n cases"
# WHILE's cap (issue 18): while_valid runs 10 iterations; capped at 5 it
# fails with one line, at 10 it runs
m="$tmp/while_valid.tflite"
timeout 10 "$cli" run "$m" --runs 1 --max-iterations 5 > "$tmp/out" 2> "$tmp/err"
rc=$?
{ [ "$rc" -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -qF "op 0: WHILE: still running after 5 iterations in this invoke" "$tmp/err"; } ||
  bad "while_valid --max-iterations 5: expected exit 1 with the cap's line, got $rc: $(head -1 "$tmp/err")"
timeout 10 "$cli" run "$m" --runs 1 --max-iterations 10 --poison > "$tmp/out" 2> "$tmp/err" ||
  bad "while_valid --max-iterations 10 --poison: $(head -1 "$tmp/err")"
echo "hostile_cli: $n models x 5 commands, slowest $max_ms ms"
[ "$fail" -eq 0 ] && echo "hostile_cli: all passed"
exit "$fail"
