/*
 * Elementwise ops on a band of rows (patch.h's stages).  An elementwise op
 * whose inputs have its output's shape computes output element i from
 * input element i alone, with the same arithmetic wherever i sits, so the
 * op's own invoke run on the band's rows -- its params cut to that many
 * elements, its pointers the band's -- writes exactly the bytes layer by
 * layer would there.  No kernel of its own: whatever kernel variant the
 * op's invoke picks is the one layer by layer runs.
 */
#include "runtime/ops/op.h"

/* The element size of an elementwise op's path (0: not one of these). */
static size_t path_elem(uint8_t path) {
    switch (path) {
    case TA__P_S8: return 1;
    case TA__P_S16: return 2;
    case TA__P_F32:
    case TA__P_S32: return 4;
    default: return 0;
    }
}

void ta__op_geom_unary(const ta__op_run *r, size_t count, ta__op_rows_geom *g) {
    memset(g, 0, sizeof *g);
    const size_t e = path_elem(r->path);
    if (!e || !count || r->n_in != 1 || r->n_out != 1) return;
    /* the rows are not in the params: the stage finds them (in_h 0) */
    g->in_n = g->out_n = 1;
    g->stride = g->dilation = g->taps = 1;
    g->in_row = g->out_row = count * e;
}

void ta__op_geom_binary(const ta__op_run *r, const ta_broadcast *b, ta__op_rows_geom *g) {
    memset(g, 0, sizeof *g);
    const size_t e = path_elem(r->path);
    if (!e || r->n_in != 2 || r->n_out != 1 || b->rank != 4 || b->out[0] != 1) return;
    for (int i = 0; i < 4; i++)
        if (b->in1[i] != b->out[i] || b->in2[i] != b->out[i] || b->out[i] < 1) return; /* broadcasting */
    g->in_n = g->out_n = 1;
    g->in_h = g->out_h = b->out[1];
    g->stride = g->dilation = g->taps = 1;
    g->in_row = g->out_row = (size_t)b->out[2] * (size_t)b->out[3] * e;
}

bool ta__op_rows_unary(size_t *count, int32_t rows, int32_t h) {
    if (h < 1 || rows < 1 || rows > h || *count % (size_t)h) return false;
    *count = *count / (size_t)h * (size_t)rows;
    return true;
}

bool ta__op_rows_binary(ta_broadcast *b, int32_t rows, int32_t h) {
    if (b->rank != 4 || b->out[1] != h || rows < 1 || rows > h) return false;
    b->in1[1] = b->in2[1] = b->out[1] = rows;
    return true;
}

ta_status ta__op_elem_band(const ta_op_def *d, const ta__op_run *r, void *params, const ta__op_band *b) {
    if (!d->banded->set_rows(params, b->out_h, b->h) || b->in_h != b->out_h || b->pad || r->n_out != 1 ||
        r->n_in < 1 || r->n_in > 2 || !b->in || !b->out || (r->n_in == 2 && !b->in2))
        return TA_E_INVALID_ARG;
    /* the invoke reads its operands through io and ptrs: the band's */
    static const int32_t io1[2] = {0, 2}, io2[3] = {0, 1, 2};
    void *ptrs[3] = {(void *)(uintptr_t)b->in, (void *)(uintptr_t)b->in2, b->out};
    ta__op_run run = *r;
    run.params = params;
    run.io = r->n_in == 2 ? io2 : io1;
    run.ptrs = ptrs;
    return d->invoke(&run);
}
