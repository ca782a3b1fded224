/*
 * SILU, int8 and float32: the SILU rewrite's LOGISTIC -> MUL(x, sigmoid(x))
 * as one pass (kernels.h).  Not an arithmetic of its own: each block of
 * up to SILU_BLOCK elements goes through the LOGISTIC kernel into a stack
 * block, then through the MUL kernel with x, so every output element is
 * computed by exactly the code the unfused pair runs -- bit-exact by
 * construction, and the sigmoid tensor never exists in the arena.
 *
 * In place: block [i, i + k) of x is read whole by the LOGISTIC before the
 * MUL writes y[i, i + k), and the MUL reads element j before writing it;
 * later blocks read only later elements.  So y may be x.
 */
#include <string.h>

#include "tinyarena/kernels.h"

/* Elements per block: 32 floats (128 bytes) of stack at most. */
#define SILU_BLOCK 32

/* The MUL's params for a one-dimensional block of k elements. */
static ta_status block_mul(const ta_silu_params *p, size_t k, ta_mul_params *m) {
    memset(m, 0, sizeof *m);
    const int32_t n = (int32_t)k;
    ta_status st = ta_broadcast_init(&m->shape, &n, 1, &n, 1);
    m->input1_offset = p->x_offset;
    m->input2_offset = p->s_offset;
    m->output_offset = p->output_offset;
    m->output_mult = p->output_mult;
    m->output_shift = p->output_shift;
    m->act_min = p->act_min;
    m->act_max = p->act_max;
    m->f_act_min = p->f_act_min;
    m->f_act_max = p->f_act_max;
    return st;
}

ta_status ta_kernel_silu_s8(const ta_silu_params *p, size_t n, const int8_t *x, int8_t *y) {
    if (!p || (n && (!x || !y))) return TA_E_INVALID_ARG;
    int8_t s[SILU_BLOCK];
    ta_mul_params m;
    size_t mk = 0; /* the block size m is set up for */
    for (size_t i = 0; i < n; i += SILU_BLOCK) {
        const size_t k = n - i < SILU_BLOCK ? n - i : SILU_BLOCK;
        ta_status st = k != mk ? block_mul(p, k, &m) : TA_OK;
        mk = k;
        if (!st) st = ta_kernel_logistic_s8(&p->act, k, x + i, s);
        if (!st) st = ta_kernel_mul_s8(&m, x + i, s, y + i);
        if (st) return st;
    }
    return TA_OK;
}

ta_status ta_kernel_silu_f32(const ta_silu_params *p, size_t n, const float *x, float *y) {
    if (!p || (n && (!x || !y))) return TA_E_INVALID_ARG;
    float s[SILU_BLOCK];
    ta_mul_params m;
    size_t mk = 0;
    for (size_t i = 0; i < n; i += SILU_BLOCK) {
        const size_t k = n - i < SILU_BLOCK ? n - i : SILU_BLOCK;
        ta_status st = k != mk ? block_mul(p, k, &m) : TA_OK;
        mk = k;
        if (!st) st = ta_kernel_logistic_f32(k, x + i, s);
        if (!st) st = ta_kernel_mul_f32(&m, x + i, s, y + i);
        if (st) return st;
    }
    return TA_OK;
}
