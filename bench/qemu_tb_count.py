#!/usr/bin/env python3
"""Instructions executed, from QEMU's translation-block log.

    qemu-... -d in_asm,exec,nochain -D LOG ...;  bench/qemu_tb_count.py [--top N] < LOG

QEMU logs each translation block once when it translates it (in_asm: one
line per guest instruction) and every time it runs it (exec: a "Trace"
line naming the block's host address and the symbol it starts in); with
nochain every execution is logged.  The count is the sum over executions
of the block's instructions.  --top N prints the instructions per symbol
(of each block's first instruction: inlined code counts for its caller) and
the N hottest blocks.  Used for the per-op profiles of the Cortex-M kernels
(qemu-system-arm) and for bench/arm64_invoke.sh (qemu-aarch64)."""
import collections
import sys


def main():
    top = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[1] == "--top" else -1
    size = {}  # host address of a block -> (instructions, guest pc)
    pending = None
    cur, first, inblock = 0, None, False
    total = 0
    per_sym, per_block, block_sym = collections.Counter(), collections.Counter(), {}
    for line in sys.stdin:
        if line.startswith("IN:"):
            inblock, cur, first = True, 0, None
            continue
        if inblock:
            if line.startswith("0x"):
                cur += 1
                if first is None:
                    first = int(line.split(":")[0], 16)
                continue
            inblock = False
            if cur:
                pending = (cur, first)
        if line.startswith("Trace"):
            parts = line.split()
            host = parts[2]
            if pending is not None:
                size[host], pending = pending, None
            n, pc = size.get(host, (0, None))
            total += n
            if top >= 0:
                sym = parts[-1] if not parts[-1].endswith("]") else "?"
                per_sym[sym] += n
                per_block[pc] += n
                block_sym[pc] = sym
    print(total)
    if top >= 0:
        for sym, n in per_sym.most_common(25):
            print("%12d %5.1f%% %s" % (n, 100.0 * n / max(total, 1), sym))
        for pc, n in per_block.most_common(top):
            print("  0x%08x %12d %s" % (pc or 0, n, block_sym[pc]))


if __name__ == "__main__":
    main()
