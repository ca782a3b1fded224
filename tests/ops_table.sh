#!/usr/bin/env bash
# `tinyarena ops`: the CLI prints the README's op table (--markdown), one
# line per op without it, and refuses an unknown option with exit 2.
set -u
cli="${TINYARENA_CLI:?}"
src="${TINYARENA_SRC:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$cli" ops --markdown > "$tmp/gen.md" || { echo "FAIL: ops --markdown exited $?"; fail=1; }
sed -n '/^<!-- ops-table:begin/,/^<!-- ops-table:end -->/p' "$src/README.md" | sed '1d;$d' > "$tmp/readme.md"
if ! cmp -s "$tmp/gen.md" "$tmp/readme.md"; then
  echo "FAIL: README.md's op table differs from 'tinyarena ops --markdown':"
  diff "$tmp/readme.md" "$tmp/gen.md" | head -20
  fail=1
fi
"$cli" ops > "$tmp/plain.txt" || { echo "FAIL: ops exited $?"; fail=1; }
grep -q '^RELU  *float32, int8, int16  *tflm$' "$tmp/plain.txt" || { echo "FAIL: plain listing lacks RELU"; fail=1; }
rows=$(grep '^| ' "$tmp/gen.md" | tail -n +2 | wc -l)
lines=$(grep -vc '^#' "$tmp/plain.txt")
[ "$rows" = "$lines" ] || { echo "FAIL: $rows table rows but $lines plain lines"; fail=1; }
"$cli" ops --bogus > /dev/null 2> "$tmp/err.txt"
rc=$?
[ $rc -eq 2 ] && grep -q "unknown option '--bogus'" "$tmp/err.txt" || { echo "FAIL: ops --bogus: exit $rc"; fail=1; }
[ $fail -eq 0 ] && echo "ops table: $rows rows, README matches the CLI"
exit $fail
