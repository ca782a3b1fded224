#!/usr/bin/env bash
# `tinyarena run`: outputs byte-identical to TFLM, JSON fields, --header, errors.
set -u
cli="${TINYARENA_CLI:?}"
data="${TINYARENA_DATA:-../shared}"
m="$data/models"; c="$m/reference/cases"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
if [ ! -d "$m" ]; then
  if [ "${CI:-}" = true ]; then echo "FAIL: shared data missing"; exit 1; fi
  echo "SKIP: shared data missing"; exit 0
fi

# person_detect on the person image, then simple_add with two inputs, shared scratch and poison
"$cli" run "$m/tflm/person_detect.tflite" --input "$c/tflm__person_detect/person/input0.raw" \
  --outputs "$tmp" --runs 2 > "$tmp/out.txt" || bad "person_detect run"
cmp -s "$tmp/output0.bin" "$c/tflm__person_detect/person/tflm_output0.bin" && ok "person_detect output == TFLM" || bad "person_detect output differs"
grep -q "^output 0 (int8 1x2) top-2:" "$tmp/out.txt" && grep -q "^  \[1\] " "$tmp/out.txt" && ok "top-k printed" || bad "top-k: $(cat "$tmp/out.txt")"
# every rewrite and patch stages (patch.h) by default: two stages band by band
grep -q "^arena: planned 24192 B (lower bound 24192), .*persistent .* total " "$tmp/out.txt" && ok "breakdown printed (every rewrite and patches by default)" || bad "breakdown: $(cat "$tmp/out.txt")"
grep -q "^patch: 2 stages band by band: ops 0..3 grid 12x1, ops 4..7 grid 6x1; planned 55296 -> 24192 B; extra MACs 561408 of 7160192 (7.84%)" "$tmp/out.txt" &&
  ok "patch stages printed" || bad "patch line: $(cat "$tmp/out.txt")"
"$cli" run "$m/tflm/person_detect.tflite" --input "$c/tflm__person_detect/person/input0.raw" --patch-overhead 0 \
  --outputs "$tmp" --runs 1 > "$tmp/outp0.txt" || bad "person_detect run, --patch-overhead 0"
cmp -s "$tmp/output0.bin" "$c/tflm__person_detect/person/tflm_output0.bin" && grep -q "^arena: planned 55296 B (lower bound 37440)" "$tmp/outp0.txt" &&
  ! grep -q "^patch:" "$tmp/outp0.txt" && ok "--patch-overhead 0: layer by layer, 55296 B, output == TFLM" || bad "--patch-overhead 0: $(cat "$tmp/outp0.txt")"
out=$("$cli" run "$m/tflm/person_detect.tflite" --patch-overhead x 2>&1); [ $? -eq 2 ] && echo "$out" | grep -q "^tinyarena: --patch-overhead x: need a percentage" &&
  ok "bad --patch-overhead: $out" || bad "bad --patch-overhead: $out"
"$cli" run "$m/tflm/person_detect.tflite" --input "$c/tflm__person_detect/person/input0.raw" --rewrite none \
  --outputs "$tmp" --runs 1 > "$tmp/out0.txt" || bad "person_detect run, --rewrite none"
cmp -s "$tmp/output0.bin" "$c/tflm__person_detect/person/tflm_output0.bin" && grep -q "^arena: planned 55296 B " "$tmp/out0.txt" && ! grep -q "^patch:" "$tmp/out0.txt" &&
  ok "--rewrite none: TFLM's rules, 55296 B, output == TFLM" || bad "--rewrite none run: $(cat "$tmp/out0.txt")"
grep -q "^invoke: median .* ms over 2 runs" "$tmp/out.txt" && ok "median printed" || bad "median"
"$cli" run "$m/tflm/simple_add_model.tflite" --input "$c/tflm__simple_add_model/random/input0.raw" \
  --input "$c/tflm__simple_add_model/random/input1.raw" --outputs "$tmp" --scratch shared --poison --runs 1 > /dev/null || bad "simple_add run"
cmp -s "$tmp/output0.bin" "$c/tflm__simple_add_model/random/tflm_output0.bin" && ok "simple_add output == TFLM" || bad "simple_add differs"

# JSON carries the same data
json=$("$cli" run "$m/tflm/hello_world_int8.tflite" --input "$c/tflm__hello_world_int8/random/input0.raw" --json --runs 1) || bad "json run"
for key in '"outputs"' '"top5"' '"arena"' '"planned"' '"scratch"' '"persistent"' '"alignment"' '"total"' '"patch"' '"invoke_ms_median"'; do
  echo "$json" | grep -q "$key" || bad "json lacks $key"
done
ok "json fields"

# plan --header carries the runtime's kernel scratch and the whole arena size
"$cli" plan "$m/tflm/xtensa_mobilenet_v2_quantized_1x3x224x224.tflite" --header "$tmp/mnv2_budget.h" > /dev/null || bad "header plan"
grep -q "#define MNV2_BUDGET_ARENA_BYTES" "$tmp/mnv2_budget.h" && grep -q "TA_BUDGET_SCRATCH" "$tmp/mnv2_budget.h" && ok "header with scratch and arena size" || bad "header content"
# ... and the op constants blob (flash), which the persistent part no longer holds
grep -q "#define MNV2_BUDGET_CONST_BYTES" "$tmp/mnv2_budget.h" && grep -q "_Alignas(16) uint8_t mnv2_budget_consts\[MNV2_BUDGET_CONST_BYTES\]" "$tmp/mnv2_budget.h" &&
  grep -q "mnv2_budget_consts, MNV2_BUDGET_CONST_BYTES, MNV2_BUDGET_REWRITES, mnv2_budget_init, MNV2_BUDGET_INIT_BYTES,$" "$tmp/mnv2_budget.h" &&
  grep -q "^    MNV2_BUDGET_ALIGN_RULE};" "$tmp/mnv2_budget.h" && ok "header with the const blob" || bad "header const blob"
p=$(sed -n 's/#define MNV2_BUDGET_PERSISTENT_BYTES \([0-9]*\)u.*/\1/p;T;q' "$tmp/mnv2_budget.h")
[ -n "$p" ] && [ "$p" -lt 4096 ] && ok "persistent part with the blob: $p B" || bad "persistent with the blob: $p"
# The header's arena is what firmware needs with the table as its plan: no
# planner scratch in the in-place work block, so it does not depend on the
# strategy that made the plan (optimal's search once made hello_world's
# 71,583 B and person_detect's 567,631 B; person_detect's 29,279 B are its
# two patch stages, the default since the header carries them: 38,319 B
# layer by layer).
for st in optimal best; do
  "$cli" plan "$m/tflm/hello_world_float.tflite" --strategy $st --header "$tmp/hw_$st.h" > /dev/null || bad "header $st"
  "$cli" plan "$m/tflm/person_detect.tflite" --strategy $st --header "$tmp/pd_$st.h" > /dev/null || bad "header $st"
done
hw=$(sed -n 's/#define HW_OPTIMAL_ARENA_BYTES \([0-9]*\)u.*/\1/p;T;q' "$tmp/hw_optimal.h")
hwb=$(sed -n 's/#define HW_BEST_ARENA_BYTES \([0-9]*\)u.*/\1/p;T;q' "$tmp/hw_best.h")
pd=$(sed -n 's/#define PD_OPTIMAL_ARENA_BYTES \([0-9]*\)u.*/\1/p;T;q' "$tmp/pd_optimal.h")
[ -n "$hw" ] && [ "$hw" = "$hwb" ] && [ "$hw" -lt 4096 ] && [ "$pd" = 25055 ] &&
  ok "header arena with the default strategy: hello_world_float $hw B, person_detect $pd B" || bad "header arena: hello_world_float $hw / $hwb B, person_detect $pd B"

# run --arena N runs as firmware does with the header: _ARENA_BYTES (= plan --json's
# runtime.firmware_arena_bytes) works bit-exactly, 32 bytes less fails with one line
for spec in "tflm/hello_world_int8 random none" "tflm/person_detect person all" "tflm/keyword_scrambled random all"; do
  set -- $spec; flat=$(echo "$1" | sed 's|/|__|g'); name=$(basename "$1")
  "$cli" plan "$m/$1.tflite" --rewrite $3 --header "$tmp/fw_budget.h" > /dev/null || bad "$name: header"
  x=$(sed -n 's/#define FW_BUDGET_ARENA_BYTES \([0-9]*\)u.*/\1/p;T;q' "$tmp/fw_budget.h")
  j=$("$cli" plan "$m/$1.tflite" --rewrite $3 --json | grep -o '"firmware_arena_bytes": [0-9]*' | grep -o '[0-9]*$')
  [ -n "$x" ] && [ "$x" = "$j" ] && ok "$name ($3): _ARENA_BYTES $x B = plan --json runtime.firmware_arena_bytes" || bad "$name: header $x, json $j"
  rm -f "$tmp/output0.bin"
  out=$("$cli" run "$m/$1.tflite" --rewrite $3 --arena "$x" --input "$c/$flat/$2/input0.raw" --outputs "$tmp" --runs 1 --json) &&
    cmp -s "$tmp/output0.bin" "$c/$flat/$2/tflm_output0.bin" && echo "$out" | grep -qF "\"arena_needs_bytes\": $x," &&
    echo "$out" | grep -qF '"init_work_bytes": 0,' && ok "$name ($3): run --arena $x bit-exact, no init work block" || bad "$name: run --arena $x: $out"
  # with patch stages, their MACs: the graph's, as `run` and bench_run count them, not 0
  # (the init table carries no graph to count them on)
  if echo "$out" | grep -q '"patch": {'; then
    pm=$(echo "$out" | grep -o '"patch": {[^[]*' | grep -o '"macs": [0-9]*' | grep -o '[0-9]*$')
    rm_=$("$cli" run "$m/$1.tflite" --rewrite $3 --input "$c/$flat/$2/input0.raw" --runs 1 --json |
      grep -o '"patch": {[^[]*' | grep -o '"macs": [0-9]*' | grep -o '[0-9]*$')
    [ -n "$pm" ] && [ "$pm" != 0 ] && [ "$pm" = "$rm_" ] && ! echo "$out" | grep -q '"extra_macs_percent": 0.000,' &&
      ok "$name ($3): run --arena --json: patch macs $pm = run's" || bad "$name: run --arena --json patch macs '$pm', run's '$rm_'"
  fi
  out=$("$cli" run "$m/$1.tflite" --rewrite $3 --arena $((x - 32)) --runs 1 2>&1); rc=$?
  [ $rc -eq 1 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q "arena needs $x bytes, has $((x - 32))$" &&
    ok "$name ($3): run --arena $((x - 32)): $out" || bad "$name: run --arena $((x - 32)): exit $rc: $out"
done
ca=$("$cli" plan "$m/tflm/hello_world_int8.tflite" --json | grep -o '"firmware_arena_bytes_consts_in_arena": [0-9]*' | grep -o '[0-9]*$')
"$cli" run "$m/tflm/hello_world_int8.tflite" --arena "$ca" --consts arena --runs 1 > /dev/null &&
  ! "$cli" run "$m/tflm/hello_world_int8.tflite" --arena $((ca - 32)) --consts arena --runs 1 2> /dev/null > /dev/null &&
  ok "--consts arena: $ca B works, 32 B less fails" || bad "--consts arena $ca"
out=$("$cli" run "$m/tflm/hello_world_int8.tflite" --consts arena 2>&1); [ $? -eq 2 ] && ok "--consts needs --arena" || bad "--consts alone: $out"

# --rewrite: the rewritten graph runs bit-exact with TFLM, in a smaller arena, and a
# header made with it records the rewrites
mn="$m/tflm/xtensa_mobilenet_v2_quantized_1x3x224x224.tflite"; dog="$c/tflm__xtensa_mobilenet_v2_quantized_1x3x224x224/dog"
"$cli" run "$mn" --input "$dog/input0.raw" --outputs "$tmp" --rewrite all --poison --runs 1 --patch-overhead 0 > "$tmp/rw.txt" || bad "rewritten run"
cmp -s "$tmp/output0.bin" "$dog/tflm_output0.bin" && grep -q "strategy greedy, rewrites alias,inplace,fusepad,order" "$tmp/rw.txt" &&
  grep -q "^arena: planned 1279488 B (lower bound 1207360)" "$tmp/rw.txt" && ok "--rewrite all: output == TFLM, planned 1279488 B" || bad "--rewrite all: $(cat "$tmp/rw.txt")"
# and with patch stages (the default), in poison mode: MobileNetV2's first blocks band by band,
# residual ADDs inside stages (ops 7..10)
json=$("$cli" run "$mn" --input "$dog/input0.raw" --outputs "$tmp" --strategy optimal --poison --runs 1 --json) && cmp -s "$tmp/output0.bin" "$dog/tflm_output0.bin" &&
  echo "$json" | grep -qF '"patch": {"first_op": 1, "last_op": 6, "grid": "28x1", "extra_macs": 18197760, "extra_macs_percent": 6.050,' &&
  echo "$json" | grep -qF '{"first_op": 7, "last_op": 10, "grid": "7x1"' &&
  echo "$json" | grep -qF '"planned": 301056' && ok "patch stages: output == TFLM (poison), planned 301056 B, JSON patch" || bad "patch json: $json"
json=$("$cli" run "$m/tflm/simple_add_model.tflite" --rewrite inplace,inputs --json --runs 1) && echo "$json" | grep -qF '"rewrites": "inplace,inputs"' &&
  echo "$json" | grep -qF '"planned": 32768' && ok "--rewrite in run JSON" || bad "--rewrite json: $json"
# without 'inputs' no rewrite writes over a graph input: the ADD of two inputs is not in place
json=$("$cli" run "$m/tflm/simple_add_model.tflite" --rewrite inplace --json --runs 1) && echo "$json" | grep -qF '"planned": 49152' &&
  ok "--rewrite inplace keeps the inputs" || bad "--rewrite inplace without inputs: $json"
"$cli" plan "$mn" --rewrite all --header "$tmp/rw_budget.h" > /dev/null && grep -qF "#define RW_BUDGET_REWRITES 0x237u /* alias,inplace,fusepad,overlap,dwinplace,inputs " "$tmp/rw_budget.h" &&
  grep -q "rw_budget_consts, RW_BUDGET_CONST_BYTES, RW_BUDGET_REWRITES, rw_budget_init, RW_BUDGET_INIT_BYTES,$" "$tmp/rw_budget.h" && ok "header records the rewrites" || bad "header rewrites"
out=$("$cli" run "$mn" --rewrite bogus 2>&1); [ $? -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q "unknown rewrite 'bogus'" && ok "bad rewrite: $out" || bad "bad rewrite: $out"

# errors: one line each, non-zero exit
out=$("$cli" run "$m/tflm/person_detect.tflite" --strategy nope 2>&1); [ $? -ne 0 ] && echo "$out" | grep -q "unknown strategy" && ok "unknown strategy" || bad "strategy: $out"
out=$("$cli" run "$m/tflm/person_detect_vela.tflite" 2>&1); [ $? -ne 0 ] && echo "$out" | grep -q "op 0 (ethos-u): no kernel" && ok "unsupported op named: $out" || bad "unsupported: $out"
out=$("$cli" run "$m/tflm/person_detect.tflite" --input "$c/tflm__simple_add_model/random/input0.raw" 2>&1); [ $? -ne 0 ] && echo "$out" | grep -q "needs exactly 9216 bytes" && ok "input size checked" || bad "input size: $out"
out=$("$cli" run 2>&1); [ $? -eq 2 ] && ok "usage" || bad "usage"

# Alignment rules (issue 17): the default is arch 4, --rewrite none keeps
# TFLM's 16, the header records the rule, and every rule runs bit-exact --
# as firmware does too, in exactly the header's arena
hwi="$m/tflm/hello_world_int8.tflite"; hwin="$c/tflm__hello_world_int8/random"
json=$("$cli" plan "$hwi" --json) && echo "$json" | grep -qF '"align_rule": "arch 4"' && echo "$json" | grep -q '"padding_bytes": [0-9]' &&
  echo "$json" | grep -q '"tflm_padding_bytes": [0-9]' && ok "plan --json: align_rule arch 4, padding_bytes" || bad "align json: $json"
"$cli" plan "$hwi" --rewrite none --json | grep -qF '"align_rule": "tflm"' && ok "--rewrite none: tflm" || bad "--rewrite none rule"
"$cli" plan "$hwi" --rewrite none --align-rule dtype --json | grep -qF '"align_rule": "dtype"' && ok "--align-rule beats --rewrite none" || bad "explicit rule"
"$cli" plan "$hwi" --arch-align 8 --json | grep -qF '"align_rule": "arch 8"' && ok "--arch-align 8" || bad "--arch-align"
"$cli" plan "$hwi" --align-rule 32 --json | grep -qF '"align_rule": "fixed 32"' && ok "--align-rule 32" || bad "--align-rule 32"
for badv in "--align-rule 3" "--align-rule arch4" "--align-rule 8192" "--arch-align 6" "--align-rule dtype --arch-align 8"; do
  out=$("$cli" plan "$hwi" $badv 2>&1); [ $? -eq 2 ] && [ $(echo "$out" | wc -l) -eq 1 ] && ok "refused: $badv" || bad "$badv: $out"
done
out=$("$cli" plan --buffers /dev/null --align-rule dtype 2>&1); [ $? -eq 2 ] && ok "--align-rule applies to models" || bad "buffers rule: $out"
"$cli" plan "$hwi" --header "$tmp/al_budget.h" > /dev/null && grep -qF "#define AL_BUDGET_ALIGN_RULE 0x402u /* arch 4 " "$tmp/al_budget.h" &&
  "$cli" plan "$hwi" --rewrite none --header "$tmp/al0_budget.h" > /dev/null && grep -qF "#define AL0_BUDGET_ALIGN_RULE 0x0u /* tflm " "$tmp/al0_budget.h" &&
  ok "header records the rule" || bad "header rule"
for rule in tflm dtype arch 1 8 64; do
  for mode in "" "--poison" "--scratch shared"; do
    rm -f "$tmp/output0.bin"
    "$cli" run "$m/tflm/keyword_scrambled.tflite" --input "$c/tflm__keyword_scrambled/random/input0.raw" --outputs "$tmp" \
      --align-rule $rule $mode --runs 1 > /dev/null && cmp -s "$tmp/output0.bin" "$c/tflm__keyword_scrambled/random/tflm_output0.bin" ||
      bad "keyword_scrambled --align-rule $rule $mode"
  done
  fwn=$("$cli" plan "$hwi" --align-rule $rule --header "$tmp/r_budget.h" > /dev/null && sed -n 's/#define R_BUDGET_ARENA_BYTES \([0-9]*\)u.*/\1/p;T;q' "$tmp/r_budget.h")
  # planned + persistent: the least arena at the header's alignment (run --arena's address)
  pq=$(( $(sed -n 's/#define R_BUDGET_BYTES \([0-9]*\)u.*/\1/p;T;q' "$tmp/r_budget.h") + $(sed -n 's/#define R_BUDGET_PERSISTENT_BYTES \([0-9]*\)u.*/\1/p;T;q' "$tmp/r_budget.h") ))
  rm -f "$tmp/output0.bin"
  "$cli" run "$hwi" --input "$hwin/input0.raw" --outputs "$tmp" --align-rule $rule --arena "$fwn" --runs 1 > /dev/null &&
    cmp -s "$tmp/output0.bin" "$hwin/tflm_output0.bin" && "$cli" run "$hwi" --align-rule $rule --arena $pq > /dev/null 2>&1 &&
    ! "$cli" run "$hwi" --align-rule $rule --arena $((pq - 1)) > /dev/null 2>&1 &&
    ok "--align-rule $rule: bit-exact in every mode; firmware arena $fwn B ($pq B at its alignment, one byte less fails)" || bad "--align-rule $rule firmware $fwn / $pq"
done

[ $fail -eq 0 ] && echo "cli_run: all passed" || echo "cli_run: FAILED"
exit $fail
