#!/usr/bin/env bash
# `tinyarena plan --strategy optimal --time-limit 1` on 10,000-buffer lists
# (above the exact search's 4,096: plan_optimal_large.c) returns in about
# 1 s with a valid plan (the CLI checks every plan) and reports its proof
# (never worse than best: test_optimal_large, on a deterministic budget).  Lists built here with awk: model-like (most
# buffers live 1-4 steps, a tenth up to 64) and dense (lifetimes up to 200
# steps), whose search does not finish within the second.
set -u
cli="${TINYARENA_CLI:?}"
san="${TA_SANITIZE:-OFF}"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# wall-time slack on top of the limit: reading and checking the list, the
# table's other rows; several times that under ASan+UBSan
case "$san" in ON|on|1|TRUE|true) slack=4000 ;; *) slack=1000 ;; esac

awk 'BEGIN { srand(11); print "id,lower,upper,size"; n = 10000
  for (i = 0; i < n; i++) { f = int(rand() * (n / 2 + 2)); l = (rand() < 0.1) ? int(rand() * 64) : int(rand() * 4)
    printf "b%d,%d,%d,%d\n", i, f, f + l + 1, 16 * int(1 + rand() * 2 ^ int(rand() * 15)) } }' > "$tmp/model10k.csv"
awk 'BEGIN { srand(12); print "id,lower,upper,size"; n = 10000
  for (i = 0; i < n; i++) { f = int(rand() * n); printf "b%d,%d,%d,%d\n", i, f, f + 1 + int(rand() * 200), 1 + int(rand() * 65536) } }' > "$tmp/dense10k.csv"

for list in model10k dense10k; do
  t0=$(date +%s%N)
  "$cli" plan --buffers "$tmp/$list.csv" --strategy optimal --time-limit 1 --json > "$tmp/out" 2> "$tmp/err"
  rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then bad "$list: exit $rc: $(head -c 300 "$tmp/err")"; continue; fi
  [ $ms -le $((1000 + slack)) ] && ok "$list: --time-limit 1 returned in $ms ms" || bad "$list: $ms ms for --time-limit 1"
  grep -q '"proof": "timed out"\|"proof": "best found with gap"\|"proof": "proven optimal"' "$tmp/out" &&
    ok "$list: $(grep -o '"arena_bytes": [0-9]*' "$tmp/out" | head -1), $(grep -o '"proof": "[a-z ]*"' "$tmp/out")" ||
    bad "$list: no proof in the JSON"
done
exit $fail
