/*
 * The persistent part sized for another ABI (ta_runtime_persistent_bytes_abi):
 * what a budget header's <P>_PERSISTENT_BYTES gives a 32-bit MCU when the
 * host that emits it has 64-bit pointers.
 */
#include "runtime/runtime_int.h"

/* tail_layout's blocks again, with another ABI's sizes: every block starts
 * at tail_align (the same on every ABI: 8 covers a 64-bit host's records
 * and is what a 32-bit MCU's int64 tables need), so the total is the sum
 * of each block rounded up to it.  The flow block's structs are pointers
 * and 32-bit words (runtime_subgraph.c sizes them for any pointer size). */
size_t ta_runtime_persistent_bytes_abi(const ta_arena_breakdown *b, size_t ptr_bytes, size_t io_bytes,
                                       size_t var_rec_bytes) {
    if (!b || b->poison_table) return SIZE_MAX;
    const size_t TA = b->tail_align ? b->tail_align : ALIGN;
    size_t sum = ta__align_up(b->n_tensors * ptr_bytes, TA);
    sum += ta__align_up(b->n_scratch_ops * ptr_bytes, TA);
    sum += ta__align_up(b->n_io * io_bytes, TA);
    sum += b->image_tail_bytes;
    sum += b->shared_scratch;
    if (b->n_vars) sum += ta__align_up(ta__align_up(b->n_vars * var_rec_bytes, TA) + b->var_data_bytes, TA);
    if (b->n_state_ops) sum += ta__align_up(ta__align_up(b->n_state_ops * ptr_bytes, TA) + b->state_data_bytes, TA);
    if (b->flow_bytes)
        sum += ta__align_up(ta__rt_flow_block_bytes(b->n_flow_ops, b->n_flow_vars, b->flow_var_bytes, TA, ptr_bytes), TA);
    return sum;
}
