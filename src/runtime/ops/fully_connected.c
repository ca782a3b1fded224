/*
 * FULLY_CONNECTED: 2-D constant weights, optional bias; int8 (per-tensor or
 * per-channel requantisation) and float32.
 */
#include "runtime/kernels/kernel_variants.h"
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_fc_params
static const ta__field k_fields_fc[] = {
    F(batches, TA__F_I32), F(accum_depth, TA__F_I32), F(out_depth, TA__F_I32), REQUANT(q), F(act_min, TA__F_F32),
    F(act_max, TA__F_F32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_fc, ta_fc_params)

static ta_status prep_fc(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 3, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *w = ta__op_in(c, 1), *b = ta__op_in(c, 2), *out = ta__op_out(c, 0);
    ta_fc_params *p = (ta_fc_params *)c->params;
    if (w->rank != 2 || w->shape[0] <= 0 || w->shape[1] <= 0)
        return ta__op_fail(c, TA_E_MALFORMED, "weights must be 2-D");
    p->out_depth = w->shape[0];
    p->accum_depth = w->shape[1];
    int64_t no = ta__op_elems(out);
    if (no % p->out_depth) return ta__op_fail(c, TA_E_MALFORMED, "output size is not a multiple of the weights' rows");
    p->batches = (int32_t)(no / p->out_depth);
    if (ta__op_elems(in) < (int64_t)p->batches * p->accum_depth)
        return ta__op_fail(c, TA_E_MALFORMED, "input is smaller than batches x depth");
    if ((st = ta__op_bias_len(c, b, p->out_depth))) return st;
    if (!w->data) return ta__op_fail(c, TA_E_UNSUPPORTED, "weights are not constant");
    if (in->dtype == TA_DTYPE_INT8)
        return ta__op_prep_s8_weights(c, in, w, b, out, "weights", p->out_depth, w->quant.count <= 1, &p->q);
    if (in->dtype == TA_DTYPE_FLOAT32)
        return ta__op_prep_f32_weights(c, w, b, out, "weights", &p->act_min, &p->act_max);
    return ta__op_fail_type(c, "input", in->dtype);
}

static ta_status run_fc(const ta__op_run *r) {
    const ta_fc_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *w = ta__op_in_ptr(r, 1), *b = ta__op_in_ptr(r, 2), *out = ta__op_out_ptr(r, 0);
    if (r->path == TA__P_S8) return ta_kernel_fully_connected_s8(p, in, w, b, out);
    /* float32 through the variant table (tinyarena/kernel_link.h): linked
     * only by firmware whose model has a float FULLY_CONNECTED */
    ta_kernel_args a = {.p = p, .input = in, .weights = w, .bias = b, .output = out};
    TA__KV_NOTE(TA_KV_BIT(TA_KV_FC_F32));
    return ta__kv_run(TA_KV_FC_F32, &a);
}

TA__OP_DEF(ta_op_FULLY_CONNECTED, FULLY_CONNECTED, ta_fc_params, k_fields_fc, TA__CLEAR_PADDING(clear_fc), prep_fc,
           run_fc, 0, TA__T(FLOAT32) | TA__T(INT8));
