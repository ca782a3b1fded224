/* Per-op prepare (src/runtime/ops/<kind>.c) on one-op graphs: for each
 * kind, a well-formed op prepares (and fills its record), and one defect at
 * a time -- a bad shape, bad quantisation, a missing or non-constant operand
 * -- is refused with its status and a one-line diag naming the op. */
#include <stdlib.h>
#include <string.h>

#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/graph.h"

/* One operand: rank < 0 means absent (index -1). */
typedef struct operand {
    ta_dtype dt;
    int32_t rank;
    int32_t shape[6];
    const void *data; /* constant data (flags CONST) */
    size_t data_bytes;
    uint32_t nq; /* quantisation entries (0: none) */
    const float *scales;
    const int64_t *zps;
    uint32_t flags;
} operand;

static const float k_scale1[1] = {0.5f}, k_scale_out[1] = {1.0f / 256.0f}, k_scales4[4] = {0.01f, 0.02f, 0.03f, 0.04f};
static const int64_t k_zp0[4] = {0, 0, 0, 0}, k_zp_m128[1] = {-128}, k_zp5[1] = {5};
static int8_t g_w8[4 * 3 * 3 * 2];
static float g_wf[4 * 8];
static int32_t g_b32[8], g_pads[8], g_axes[2], g_bes[3][4];

/* A custom op's name and options for the next prep() (TA_OP_CUSTOM). */
static const char *g_custom_name;
static const void *g_custom_data;
static size_t g_custom_bytes;

/* The op of kind `kind` with these operands: prepare's status (size pass,
 * then the fill when it passes), its diag in d. */
static ta_status prep(ta_op_kind kind, const ta_op_options *opt, const operand *in, uint32_t n_in, const operand *out,
                      uint32_t n_out, ta_diag *d) {
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 16, .ops = 1, .indices = 64, .dims = 96};
    size_t need = ta_graph_bytes(&lim);
    void *mem = malloc(need);
    ta_graph g;
    ta_graph_init(&g, &lim, mem, need);
    ta_graph_add_subgraph(&g, "main", NULL);
    int32_t ins[8], outs[2];
    for (uint32_t k = 0; k < n_in + n_out; k++) {
        const operand *o = k < n_in ? &in[k] : &out[k - n_in];
        int32_t *slot = k < n_in ? &ins[k] : &outs[k - n_in];
        if (o->rank < 0) {
            *slot = -1;
            continue;
        }
        ta_tensor_desc td = {.name = k < n_in ? "in" : "out",
                             .dtype = o->dt,
                             .rank = o->rank,
                             .shape = o->shape,
                             .data = o->data,
                             .data_bytes = o->data_bytes,
                             .flags = o->flags | (o->data ? TA_TENSOR_CONST : 0u)};
        td.quant.count = o->nq;
        td.quant.scale = o->scales;
        td.quant.zero_point = o->zps;
        CHECK(ta_graph_add_tensor(&g, &td, slot) == TA_OK);
    }
    ta_op_desc od = {.kind = kind,
                     .custom_name = g_custom_name,
                     .custom_data = g_custom_data,
                     .custom_data_bytes = g_custom_bytes,
                     .inputs = ins,
                     .n_inputs = n_in,
                     .outputs = outs,
                     .n_outputs = n_out,
                     .opt = opt};
    CHECK(ta_graph_add_op(&g, &od, NULL) == TA_OK);
    ta__op_info info;
    d->msg[0] = 0;
    ta_status st = ta__op_prepare(&g, 0, 0, NULL, 0, &info, d);
    if (!st) {
        void *rec = aligned_alloc(8, (info.data_bytes + 7) / 8 * 8);
        st = ta__op_prepare(&g, 0, 0, rec, info.data_bytes, &info, d);
        free(rec);
    }
    free(mem);
    return st;
}

/* status st and a diag naming op 0 (`name`) and containing `what` */
static void expect(ta_status got, ta_status st, const ta_diag *d, const char *name, const char *what) {
    char op[64];
    snprintf(op, sizeof op, "op 0 (%s)", name);
    CHECK_EQ_U(got, st);
    CHECK(st == TA_OK || (strstr(d->msg, op) == d->msg && strstr(d->msg, what) != NULL && !strchr(d->msg, '\n')));
    if (got != st || (st != TA_OK && !strstr(d->msg, what)))
        fprintf(stderr, "  %s: got '%s', want '%s'\n", name, d->msg, what);
}

static operand act8(int32_t r, const int32_t *shape, const float *scale, const int64_t *zp) {
    operand o = {.dt = TA_DTYPE_INT8, .rank = r, .nq = 1, .scales = scale, .zps = zp};
    memcpy(o.shape, shape, (size_t)r * sizeof *shape);
    return o;
}

static void conv(void) {
    ta_op_options opt = ta_op_options_default();
    opt.padding = TA_PAD_VALID;
    opt.stride_w = opt.stride_h = 1;
    const int32_t si[4] = {1, 5, 5, 2}, sw[4] = {4, 3, 3, 2}, so[4] = {1, 3, 3, 4};
    operand in[3] = {act8(4, si, k_scale1, k_zp0),
                     act8(4, sw, k_scales4, k_zp0),
                     {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {4}, .data = g_b32, .data_bytes = 16}};
    in[1].data = g_w8;
    in[1].data_bytes = sizeof g_w8;
    in[1].nq = 4;
    operand out = act8(4, so, k_scale1, k_zp0);
    ta_diag d;
    expect(prep(TA_OP_CONV_2D, &opt, in, 3, &out, 1, &d), TA_OK, &d, "CONV_2D", "");
    expect(prep(TA_OP_CONV_2D, &opt, in, 1, &out, 1, &d), TA_E_MALFORMED, &d, "CONV_2D", "expects 2..3 inputs");
    /* a shape: 3-D input; an output that does not match */
    operand bad = in[0];
    bad.rank = 3;
    operand ins2[3] = {bad, in[1], in[2]};
    expect(prep(TA_OP_CONV_2D, &opt, ins2, 3, &out, 1, &d), TA_E_MALFORMED, &d, "CONV_2D", "expects 4-D tensors");
    operand ob = out;
    ob.shape[0] = 2;
    expect(prep(TA_OP_CONV_2D, &opt, in, 3, &ob, 1, &d), TA_E_MALFORMED, &d, "CONV_2D", "output batch differs");
    operand o2 = out;
    o2.shape[1] = 4;
    expect(prep(TA_OP_CONV_2D, &opt, in, 3, &o2, 1, &d), TA_E_MALFORMED, &d, "CONV_2D", "output shape does not match");
    /* the bias: wrong length, wrong type */
    operand ins3[3] = {in[0], in[1], in[2]};
    ins3[2].shape[0] = 3;
    ins3[2].data_bytes = 12;
    expect(prep(TA_OP_CONV_2D, &opt, ins3, 3, &out, 1, &d), TA_E_MALFORMED, &d, "CONV_2D",
           "3 elements for 4 output channels");
    ins3[2] = in[2];
    ins3[2].dt = TA_DTYPE_INT8;
    ins3[2].data_bytes = 4;
    expect(prep(TA_OP_CONV_2D, &opt, ins3, 3, &out, 1, &d), TA_E_UNSUPPORTED, &d, "CONV_2D", "bias type int8");
    /* quantisation: weights without scales, scales for 3 of 4 channels */
    ins3[2] = in[2];
    ins3[1].nq = 0;
    expect(prep(TA_OP_CONV_2D, &opt, ins3, 3, &out, 1, &d), TA_E_UNSUPPORTED, &d, "CONV_2D",
           "weights are not quantised");
    ins3[1].nq = 3;
    expect(prep(TA_OP_CONV_2D, &opt, ins3, 3, &out, 1, &d), TA_E_MALFORMED, &d, "CONV_2D",
           "weight scales do not match");
    /* the filter must be constant; the output must not be */
    ins3[1] = in[1];
    ins3[1].data = NULL;
    ins3[1].data_bytes = 0;
    expect(prep(TA_OP_CONV_2D, &opt, ins3, 3, &out, 1, &d), TA_E_UNSUPPORTED, &d, "CONV_2D", "filter is not constant");
    operand oc = out;
    oc.data = g_w8;
    oc.data_bytes = sizeof g_w8;
    expect(prep(TA_OP_CONV_2D, &opt, in, 3, &oc, 1, &d), TA_E_MALFORMED, &d, "CONV_2D", "is a constant");
    /* an output that is absent */
    operand none = {.rank = -1};
    expect(prep(TA_OP_CONV_2D, &opt, in, 3, &none, 1, &d), TA_E_MALFORMED, &d, "CONV_2D", "an output is missing");
}

static void fully_connected(void) {
    operand in[2] = {{.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {1, 8}},
                     {.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {4, 8}, .data = g_wf, .data_bytes = sizeof g_wf}};
    operand out = {.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {1, 4}};
    ta_diag d;
    expect(prep(TA_OP_FULLY_CONNECTED, NULL, in, 2, &out, 1, &d), TA_OK, &d, "FULLY_CONNECTED", "");
    operand w1 = in[1];
    w1.rank = 1;
    w1.shape[0] = 32;
    operand ins[2] = {in[0], w1};
    expect(prep(TA_OP_FULLY_CONNECTED, NULL, ins, 2, &out, 1, &d), TA_E_MALFORMED, &d, "FULLY_CONNECTED",
           "weights must be 2-D");
    operand o3 = out;
    o3.shape[1] = 3;
    expect(prep(TA_OP_FULLY_CONNECTED, NULL, in, 2, &o3, 1, &d), TA_E_MALFORMED, &d, "FULLY_CONNECTED",
           "not a multiple");
    /* int8 with a requantisation ratio of 2^40: the kernel would shift an
     * int32 left by more than 30 */
    static const float k_big[1] = {1.0f}, k_tiny[1] = {1e-12f};
    const int32_t sq[2] = {1, 8}, sw8[2] = {4, 8}, so8[2] = {1, 4};
    operand qi[2] = {act8(2, sq, k_big, k_zp0), act8(2, sw8, k_big, k_zp0)};
    qi[1].data = g_w8;
    qi[1].data_bytes = 32;
    operand qo = act8(2, so8, k_scale1, k_zp0);
    expect(prep(TA_OP_FULLY_CONNECTED, NULL, qi, 2, &qo, 1, &d), TA_OK, &d, "FULLY_CONNECTED", "");
    qo.scales = k_tiny;
    expect(prep(TA_OP_FULLY_CONNECTED, NULL, qi, 2, &qo, 1, &d), TA_E_UNSUPPORTED, &d, "FULLY_CONNECTED",
           "requantisation ratio out of range");
    operand i16 = in[0];
    i16.dt = TA_DTYPE_INT16;
    operand ins2[2] = {i16, in[1]};
    expect(prep(TA_OP_FULLY_CONNECTED, NULL, ins2, 2, &out, 1, &d), TA_E_UNSUPPORTED, &d, "FULLY_CONNECTED",
           "input type int16");
}

static void elementwise(void) {
    const int32_t s4[2] = {2, 4}, s3[2] = {2, 3};
    operand a = act8(2, s4, k_scale1, k_zp0), b3 = act8(2, s3, k_scale1, k_zp0);
    operand in[2] = {a, a}, out = a;
    ta_diag d;
    expect(prep(TA_OP_ADD, NULL, in, 2, &out, 1, &d), TA_OK, &d, "ADD", "");
    operand bad[2] = {a, b3};
    expect(prep(TA_OP_ADD, NULL, bad, 2, &out, 1, &d), TA_E_UNSUPPORTED, &d, "ADD", "do not broadcast");
    operand mixed[2] = {a, a};
    mixed[1].dt = TA_DTYPE_INT16;
    expect(prep(TA_OP_SUB, NULL, mixed, 2, &out, 1, &d), TA_E_UNSUPPORTED, &d, "SUB", "mixed input/output");
    expect(prep(TA_OP_MUL, NULL, in, 1, &out, 1, &d), TA_E_MALFORMED, &d, "MUL", "expects 2..2 inputs");
    /* LOGISTIC int8: TFLM's output is scale 1/256, zero point -128 */
    operand lo = act8(2, s4, k_scale_out, k_zp_m128);
    expect(prep(TA_OP_LOGISTIC, NULL, in, 1, &lo, 1, &d), TA_OK, &d, "LOGISTIC", "");
    operand lz = act8(2, s4, k_scale_out, k_zp5);
    expect(prep(TA_OP_LOGISTIC, NULL, in, 1, &lz, 1, &d), TA_E_UNSUPPORTED, &d, "LOGISTIC",
           "unexpected output zero point");
    /* SOFTMAX int8 output: scale 1/256 and zero point -128 */
    ta_op_options sm = ta_op_options_default();
    sm.beta = 1.0f;
    expect(prep(TA_OP_SOFTMAX, &sm, in, 1, &lo, 1, &d), TA_OK, &d, "SOFTMAX", "");
    expect(prep(TA_OP_SOFTMAX, &sm, in, 1, &lz, 1, &d), TA_E_UNSUPPORTED, &d, "SOFTMAX",
           "scale 1/256 and zero point -128");
    /* QUANTIZE to int8: a positive output scale */
    operand f = {.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {2, 4}};
    operand q0 = a;
    q0.nq = 0;
    expect(prep(TA_OP_QUANTIZE, NULL, &f, 1, &a, 1, &d), TA_OK, &d, "QUANTIZE", "");
    expect(prep(TA_OP_QUANTIZE, NULL, &f, 1, &q0, 1, &d), TA_E_MALFORMED, &d, "QUANTIZE",
           "output scale is not positive");
    expect(prep(TA_OP_DEQUANTIZE, NULL, &a, 1, &a, 1, &d), TA_E_UNSUPPORTED, &d, "DEQUANTIZE", "output type int8");
    /* operands every kind refuses: an unknown (-1) dim, an empty output */
    operand unk[2] = {a, a};
    unk[1].shape[0] = -1;
    expect(prep(TA_OP_ADD, NULL, unk, 2, &out, 1, &d), TA_E_UNSUPPORTED, &d, "ADD", "unknown (-1) dim");
    operand empty = a;
    empty.shape[0] = 0;
    expect(prep(TA_OP_ADD, NULL, in, 2, &empty, 1, &d), TA_E_UNSUPPORTED, &d, "ADD", "has no elements");
    /* quantisation every kind refuses: a NaN scale, a zero point outside int8 */
    static const float k_nan[1] = {__builtin_nanf("")};
    static const int64_t k_zp200[1] = {200};
    operand qn[2] = {a, a};
    qn[0].scales = k_nan;
    expect(prep(TA_OP_ADD, NULL, qn, 2, &out, 1, &d), TA_E_MALFORMED, &d, "ADD", "NaN scale");
    qn[0] = a;
    qn[1].zps = k_zp200;
    expect(prep(TA_OP_ADD, NULL, qn, 2, &out, 1, &d), TA_E_MALFORMED, &d, "ADD",
           "zero point 200, outside its int8 range");
    /* RESHAPE: the same bytes */
    operand r = {.dt = TA_DTYPE_INT8, .rank = 1, .shape = {8}};
    expect(prep(TA_OP_RESHAPE, NULL, &a, 1, &r, 1, &d), TA_OK, &d, "RESHAPE", "");
    r.shape[0] = 7;
    expect(prep(TA_OP_RESHAPE, NULL, &a, 1, &r, 1, &d), TA_E_MALFORMED, &d, "RESHAPE", "output bytes differ");
}

static void movement(void) {
    ta_diag d;
    const int32_t s4[2] = {2, 4};
    operand a = act8(2, s4, k_scale1, k_zp0);
    /* PAD: constant int32 paddings [rank, 2] */
    g_pads[0] = 1, g_pads[1] = 0, g_pads[2] = 0, g_pads[3] = 2;
    operand pin[2] = {a, {.dt = TA_DTYPE_INT32, .rank = 2, .shape = {2, 2}, .data = g_pads, .data_bytes = 16}};
    operand pout = a;
    pout.shape[0] = 3;
    pout.shape[1] = 6;
    expect(prep(TA_OP_PAD, NULL, pin, 2, &pout, 1, &d), TA_OK, &d, "PAD", "");
    operand pvar[2] = {pin[0], pin[1]};
    pvar[1].data = NULL;
    pvar[1].data_bytes = 0;
    expect(prep(TA_OP_PAD, NULL, pvar, 2, &pout, 1, &d), TA_E_UNSUPPORTED, &d, "PAD", "not constant");
    g_pads[3] = -2;
    expect(prep(TA_OP_PAD, NULL, pin, 2, &pout, 1, &d), TA_E_MALFORMED, &d, "PAD", "negative padding");
    g_pads[3] = 2;
    operand pshort[2] = {pin[0], pin[1]};
    pshort[1].data_bytes = 8; /* holds 2 of its 4 values */
    expect(prep(TA_OP_PAD, NULL, pshort, 2, &pout, 1, &d), TA_E_MALFORMED, &d, "PAD", "holds 8 bytes");
    /* STRIDED_SLICE: begin, end, strides; a stride too large for int32 walks */
    for (int k = 0; k < 2; k++) g_bes[0][k] = 0, g_bes[1][k] = s4[k], g_bes[2][k] = 1;
    operand sin[4] = {a,
                      {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {2}, .data = g_bes[0], .data_bytes = 8},
                      {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {2}, .data = g_bes[1], .data_bytes = 8},
                      {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {2}, .data = g_bes[2], .data_bytes = 8}};
    expect(prep(TA_OP_STRIDED_SLICE, NULL, sin, 4, &a, 1, &d), TA_OK, &d, "STRIDED_SLICE", "");
    g_bes[2][1] = INT32_MAX;
    expect(prep(TA_OP_STRIDED_SLICE, NULL, sin, 4, &a, 1, &d), TA_E_MALFORMED, &d, "STRIDED_SLICE",
           "stride is out of range");
    g_bes[2][1] = 1;
    expect(prep(TA_OP_STRIDED_SLICE, NULL, sin, 3, &a, 1, &d), TA_E_MALFORMED, &d, "STRIDED_SLICE",
           "expects 4..4 inputs");
    /* MEAN over axis 1 */
    g_axes[0] = 1;
    operand min[2] = {a, {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {1}, .data = g_axes, .data_bytes = 4}};
    operand mout = act8(1, s4, k_scale1, k_zp0);
    mout.shape[0] = 2;
    expect(prep(TA_OP_MEAN, NULL, min, 2, &mout, 1, &d), TA_OK, &d, "MEAN", "");
    mout.shape[0] = 4;
    expect(prep(TA_OP_MEAN, NULL, min, 2, &mout, 1, &d), TA_E_MALFORMED, &d, "MEAN", "does not match the reduction");
    /* AVERAGE_POOL_2D 2x2 stride 2; a zero filter */
    ta_op_options po = ta_op_options_default();
    po.padding = TA_PAD_VALID;
    po.filter_w = po.filter_h = po.stride_w = po.stride_h = 2;
    const int32_t s44[4] = {1, 4, 4, 2}, s22[4] = {1, 2, 2, 2};
    operand pi = act8(4, s44, k_scale1, k_zp0), pq = act8(4, s22, k_scale1, k_zp0);
    expect(prep(TA_OP_AVERAGE_POOL_2D, &po, &pi, 1, &pq, 1, &d), TA_OK, &d, "AVERAGE_POOL_2D", "");
    po.filter_w = 0;
    expect(prep(TA_OP_MAX_POOL_2D, &po, &pi, 1, &pq, 1, &d), TA_E_MALFORMED, &d, "MAX_POOL_2D",
           "filter size and stride");
    /* CONCATENATION: int8 inputs share the output's quantisation */
    ta_op_options co = ta_op_options_default();
    co.axis = 1;
    operand cout = a;
    cout.shape[1] = 8;
    operand cin[2] = {a, a};
    expect(prep(TA_OP_CONCATENATION, &co, cin, 2, &cout, 1, &d), TA_OK, &d, "CONCATENATION", "");
    cin[1].zps = k_zp5;
    expect(prep(TA_OP_CONCATENATION, &co, cin, 2, &cout, 1, &d), TA_E_UNSUPPORTED, &d, "CONCATENATION",
           "share the output's scale");
    cin[1] = a;
    cin[1].shape[0] = 1; /* narrower than the output off the axis */
    expect(prep(TA_OP_CONCATENATION, &co, cin, 2, &cout, 1, &d), TA_E_MALFORMED, &d, "CONCATENATION",
           "differ from the output's off the axis");
    co.axis = 2;
    cin[1] = a;
    expect(prep(TA_OP_CONCATENATION, &co, cin, 2, &cout, 1, &d), TA_E_MALFORMED, &d, "CONCATENATION",
           "axis out of range");
}

static void recurrent(void) {
    /* SVDF (with a bias: prepare asks for all five inputs) with its state
     * input absent */
    ta_op_options o = ta_op_options_default();
    o.rank = 1;
    operand in[5] = {{.dt = TA_DTYPE_INT8, .rank = 2, .shape = {1, 8}, .nq = 1, .scales = k_scale1, .zps = k_zp0},
                     {.dt = TA_DTYPE_INT8,
                      .rank = 2,
                      .shape = {4, 8},
                      .data = g_w8,
                      .data_bytes = 32,
                      .nq = 1,
                      .scales = k_scale1,
                      .zps = k_zp0},
                     {.dt = TA_DTYPE_INT16,
                      .rank = 2,
                      .shape = {4, 2},
                      .data = g_w8,
                      .data_bytes = 16,
                      .nq = 1,
                      .scales = k_scale1,
                      .zps = k_zp0},
                     {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {4}, .data = g_b32, .data_bytes = 16},
                     {.rank = -1}};
    operand out = {.dt = TA_DTYPE_INT8, .rank = 2, .shape = {1, 4}, .nq = 1, .scales = k_scale1, .zps = k_zp0};
    ta_diag d;
    expect(prep(TA_OP_SVDF, &o, in, 5, &out, 1, &d), TA_E_MALFORMED, &d, "SVDF", "a required input is missing");
    /* the state present but not a variable tensor */
    in[4] = (operand){.dt = TA_DTYPE_INT16, .rank = 2, .shape = {1, 8}, .nq = 1, .scales = k_scale1, .zps = k_zp0};
    expect(prep(TA_OP_SVDF, &o, in, 5, &out, 1, &d), TA_E_UNSUPPORTED, &d, "SVDF", "not a variable tensor");
    in[4].flags = TA_TENSOR_VARIABLE;
    expect(prep(TA_OP_SVDF, &o, in, 5, &out, 1, &d), TA_OK, &d, "SVDF", "");
    o.rank = 3; /* does not divide the 4 filters */
    expect(prep(TA_OP_SVDF, &o, in, 5, &out, 1, &d), TA_E_MALFORMED, &d, "SVDF", "rank does not divide");
    o.rank = 1;
    in[4].dt = TA_DTYPE_INT8; /* the state's type differs from the time weights' */
    expect(prep(TA_OP_SVDF, &o, in, 5, &out, 1, &d), TA_E_UNSUPPORTED, &d, "SVDF", "state type int8");
    /* LSTM: TFLM's 24 inputs */
    expect(prep(TA_OP_LSTM, NULL, in, 5, &out, 1, &d), TA_E_MALFORMED, &d, "LSTM", "expects 24 inputs");
}

/* The signal library's custom ops: matched by name, options a FlexBuffer */
static void signal_ops(void) {
    ta_diag d;
    operand in[2] = {{.dt = TA_DTYPE_INT16, .rank = 1, .shape = {8}}, {.dt = TA_DTYPE_INT16, .rank = 1, .shape = {8}}};
    operand out = {.dt = TA_DTYPE_INT16, .rank = 1, .shape = {8}};
    g_custom_name = "SignalWindow";
    expect(prep(TA_OP_CUSTOM, NULL, in, 2, &out, 1, &d), TA_E_MALFORMED, &d, "SignalWindow",
           "custom options are missing");
    static const uint8_t junk[4] = {0xff, 0xff, 0xff, 0xff};
    g_custom_data = junk;
    g_custom_bytes = sizeof junk;
    expect(prep(TA_OP_CUSTOM, NULL, in, 2, &out, 1, &d), TA_E_MALFORMED, &d, "SignalWindow",
           "custom options: flexbuffer");
    g_custom_data = NULL;
    g_custom_bytes = 0;
    operand i32 = in[0];
    i32.dt = TA_DTYPE_INT32;
    operand bad[2] = {i32, in[1]};
    expect(prep(TA_OP_CUSTOM, NULL, bad, 2, &out, 1, &d), TA_E_UNSUPPORTED, &d, "SignalWindow", "input type int32");
    g_custom_name = "SignalNotAnOp";
    expect(prep(TA_OP_CUSTOM, NULL, in, 2, &out, 1, &d), TA_E_UNSUPPORTED, &d, "SignalNotAnOp",
           "no kernel for this op");
    g_custom_name = NULL;
}

/* issue #18 part A: the refusals of each new op's prepare */
static void part_a(void) {
    const int32_t s24[2] = {2, 4}, s14[2] = {1, 4}, s3[1] = {3}, s5[5] = {1, 1, 1, 2, 4};
    static const float k_scale2[1] = {2.0f}, k_scale16[1] = {16.0f / 256.0f};
    static const int64_t k_zp127[1] = {127};
    operand a = act8(2, s24, k_scale1, k_zp0), a14 = act8(2, s14, k_scale1, k_zp0);
    operand f = {.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {2, 4}};
    operand bl = {.dt = TA_DTYPE_BOOL, .rank = 2, .shape = {2, 4}};
    ta_diag d;
    /* PRELU: alpha broadcasts, the input may not; int8 alpha only */
    operand pin[2] = {a, a14};
    expect(prep(TA_OP_PRELU, NULL, pin, 2, &a, 1, &d), TA_OK, &d, "PRELU", "");
    operand pbig[2] = {a14, a};
    expect(prep(TA_OP_PRELU, NULL, pbig, 2, &a, 1, &d), TA_E_MALFORMED, &d, "PRELU", "does not match the input's");
    operand p3[2] = {a, act8(1, s3, k_scale1, k_zp0)};
    expect(prep(TA_OP_PRELU, NULL, p3, 2, &a, 1, &d), TA_E_UNSUPPORTED, &d, "PRELU", "do not broadcast");
    operand a16 = a;
    a16.dt = TA_DTYPE_INT16;
    operand p16[2] = {a16, a16};
    expect(prep(TA_OP_PRELU, NULL, p16, 2, &a16, 1, &d), TA_E_UNSUPPORTED, &d, "PRELU", "alpha type int16");
    /* comparisons: a bool output of the broadcast size; int8 scales below 1 */
    operand cin[2] = {a, a14};
    expect(prep(TA_OP_GREATER, NULL, cin, 2, &bl, 1, &d), TA_OK, &d, "GREATER", "");
    expect(prep(TA_OP_GREATER, NULL, cin, 2, &a, 1, &d), TA_E_UNSUPPORTED, &d, "GREATER", "output type int8");
    operand b14 = bl;
    b14.shape[0] = 1;
    expect(prep(TA_OP_LESS, NULL, cin, 2, &b14, 1, &d), TA_E_MALFORMED, &d, "LESS", "broadcast shape");
    operand big[2] = {act8(2, s24, k_scale2, k_zp0), a};
    expect(prep(TA_OP_EQUAL, NULL, big, 2, &bl, 1, &d), TA_E_UNSUPPORTED, &d, "EQUAL", "scales must be in (0, 1)");
    operand bb[2] = {bl, bl};
    expect(prep(TA_OP_NOT_EQUAL, NULL, bb, 2, &bl, 1, &d), TA_OK, &d, "NOT_EQUAL", "");
    expect(prep(TA_OP_LESS_EQUAL, NULL, bb, 2, &bl, 1, &d), TA_E_UNSUPPORTED, &d, "LESS_EQUAL", "input type bool");
    operand i16[2] = {a16, a16};
    expect(prep(TA_OP_GREATER, NULL, i16, 2, &bl, 1, &d), TA_E_UNSUPPORTED, &d, "GREATER", "input type int16");
    /* logic on bools only */
    operand ff[2] = {f, f};
    expect(prep(TA_OP_LOGICAL_AND, NULL, bb, 2, &bl, 1, &d), TA_OK, &d, "LOGICAL_AND", "");
    expect(prep(TA_OP_LOGICAL_OR, NULL, ff, 2, &f, 1, &d), TA_E_UNSUPPORTED, &d, "LOGICAL_OR", "input type float32");
    /* SELECT_V2: a bool condition, shapes broadcasting to the output's, x and
     * y in the output's quantisation (copied, never rescaled) */
    operand sel[3] = {bl, a, a14};
    expect(prep(TA_OP_SELECT_V2, NULL, sel, 3, &a, 1, &d), TA_OK, &d, "SELECT_V2", "");
    operand sc[3] = {a, a, a};
    expect(prep(TA_OP_SELECT_V2, NULL, sc, 3, &a, 1, &d), TA_E_UNSUPPORTED, &d, "SELECT_V2", "condition type int8");
    operand s3x[3] = {bl, act8(1, s3, k_scale1, k_zp0), a};
    expect(prep(TA_OP_SELECT_V2, NULL, s3x, 3, &a, 1, &d), TA_E_MALFORMED, &d, "SELECT_V2", "do not broadcast");
    operand sq[3] = {bl, a, act8(2, s24, k_scale1, k_zp5)};
    expect(prep(TA_OP_SELECT_V2, NULL, sq, 3, &a, 1, &d), TA_E_UNSUPPORTED, &d, "SELECT_V2",
           "share the output's quantisation");
    operand a5 = act8(5, s5, k_scale1, k_zp0);
    operand s5x[3] = {bl, a5, a};
    expect(prep(TA_OP_SELECT_V2, NULL, s5x, 3, &a, 1, &d), TA_E_UNSUPPORTED, &d, "SELECT_V2", "ranks differ");
    /* unary ops: one size, types as TFLM */
    operand a7 = a;
    a7.shape[1] = 3;
    expect(prep(TA_OP_ABS, NULL, &a, 1, &a7, 1, &d), TA_E_MALFORMED, &d, "ABS", "output differs from input");
    expect(prep(TA_OP_EXP, NULL, &a, 1, &a, 1, &d), TA_E_UNSUPPORTED, &d, "EXP", "input type int8");
    expect(prep(TA_OP_ELU, NULL, &a16, 1, &a16, 1, &d), TA_E_UNSUPPORTED, &d, "ELU", "input type int16");
    operand q0 = a;
    q0.nq = 0;
    expect(prep(TA_OP_RSQRT, NULL, &a, 1, &q0, 1, &d), TA_E_UNSUPPORTED, &d, "RSQRT", "need quantisation");
    operand a16z = a16;
    a16z.zps = k_zp5;
    expect(prep(TA_OP_RELU, NULL, &a16z, 1, &a16, 1, &d), TA_E_UNSUPPORTED, &d, "RELU", "zero points 0");
    expect(prep(TA_OP_RELU_N1_TO_1, NULL, &a, 1, &a, 1, &d), TA_E_UNSUPPORTED, &d, "RELU_N1_TO_1",
           "no quantised RELU_N1_TO_1");
    expect(prep(TA_OP_RELU_N1_TO_1, NULL, &f, 1, &f, 1, &d), TA_OK, &d, "RELU_N1_TO_1", "");
    /* binary ops */
    operand sd16[2] = {a16z, a16};
    expect(prep(TA_OP_SQUARED_DIFFERENCE, NULL, sd16, 2, &a16, 1, &d), TA_E_UNSUPPORTED, &d, "SQUARED_DIFFERENCE",
           "zero points 0");
    operand i32 = {.dt = TA_DTYPE_INT32, .rank = 2, .shape = {2, 4}};
    operand ii[2] = {i32, i32};
    expect(prep(TA_OP_FLOOR_DIV, NULL, ii, 2, &i32, 1, &d), TA_E_UNSUPPORTED, &d, "FLOOR_DIV", "input type int32");
    expect(prep(TA_OP_FLOOR_MOD, NULL, ff, 2, &f, 1, &d), TA_OK, &d, "FLOOR_MOD", "");
    /* normalisations */
    operand lso = act8(2, s24, k_scale16, k_zp127);
    expect(prep(TA_OP_LOG_SOFTMAX, NULL, &a, 1, &lso, 1, &d), TA_OK, &d, "LOG_SOFTMAX", "");
    expect(prep(TA_OP_LOG_SOFTMAX, NULL, &a, 1, &a, 1, &d), TA_E_UNSUPPORTED, &d, "LOG_SOFTMAX", "scale 16/256");
    ta_op_options act = ta_op_options_default();
    act.activation = TA_ACT_RELU;
    expect(prep(TA_OP_L2_NORMALIZATION, &act, &a, 1, &a, 1, &d), TA_E_UNSUPPORTED, &d, "L2_NORMALIZATION",
           "fused activation");
    expect(prep(TA_OP_L2_NORMALIZATION, NULL, &a5, 1, &a5, 1, &d), TA_E_UNSUPPORTED, &d, "L2_NORMALIZATION",
           "rank must be 1..4");
    expect(prep(TA_OP_L2_NORMALIZATION, NULL, &a, 1, &a, 1, &d), TA_OK, &d, "L2_NORMALIZATION", "");
}

/* Part B of issue 18: the indexing, shape and reduction ops and the float
 * recurrent paths, one well-formed op each and the refusals their prepare
 * owns. */
static void part_b(void) {
    ta_diag d;
    static int32_t ax[1], idx[3], shp[3], blk[2], pads[4];
    const int32_t s26[2] = {2, 6}, s23[2] = {2, 3}, s24[2] = {2, 4};
    operand a = act8(2, s26, k_scale1, k_zp0);
    operand axis = {.dt = TA_DTYPE_INT32, .rank = 0, .data = ax, .data_bytes = 4};
    /* SPLIT [2, 6] into 2 x [2, 3] on axis 1 */
    ta_op_options o = ta_op_options_default();
    o.num = 2;
    ax[0] = 1;
    operand sin[2] = {axis, a}, sout[2] = {act8(2, s23, k_scale1, k_zp0), act8(2, s23, k_scale1, k_zp0)};
    expect(prep(TA_OP_SPLIT, &o, sin, 2, sout, 2, &d), TA_OK, &d, "SPLIT", "");
    o.num = 3;
    expect(prep(TA_OP_SPLIT, &o, sin, 2, sout, 2, &d), TA_E_MALFORMED, &d, "SPLIT", "num_splits differs");
    o.num = 2;
    sout[1] = act8(2, s24, k_scale1, k_zp0);
    sout[0].shape[1] = 2;
    expect(prep(TA_OP_SPLIT, &o, sin, 2, sout, 2, &d), TA_E_MALFORMED, &d, "SPLIT", "not equal parts");
    expect(prep(TA_OP_SPLIT_V, &o, (operand[]){a, axis, axis}, 3, sout, 2, &d), TA_OK, &d, "SPLIT_V", "");
    ax[0] = 2;
    expect(prep(TA_OP_SPLIT_V, &o, (operand[]){a, axis, axis}, 3, sout, 2, &d), TA_E_MALFORMED, &d, "SPLIT_V",
           "axis out of range");
    /* GATHER [2, 6] by 3 constant indices on axis 1 -> [2, 3] */
    ta_op_options go = ta_op_options_default();
    go.axis = 1;
    idx[0] = 5, idx[1] = 0, idx[2] = 2;
    operand gin[2] = {a, {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {3}, .data = idx, .data_bytes = 12}};
    operand gout = act8(2, s23, k_scale1, k_zp0);
    expect(prep(TA_OP_GATHER, &go, gin, 2, &gout, 1, &d), TA_OK, &d, "GATHER", "");
    idx[1] = 6;
    expect(prep(TA_OP_GATHER, &go, gin, 2, &gout, 1, &d), TA_E_MALFORMED, &d, "GATHER", "constant index is out");
    idx[1] = 0;
    go.batch_dims = 2;
    expect(prep(TA_OP_GATHER, &go, gin, 2, &gout, 1, &d), TA_E_MALFORMED, &d, "GATHER", "batch_dims out of range");
    go.batch_dims = 0;
    gin[1].dt = TA_DTYPE_INT16;
    gin[1].data_bytes = 6;
    expect(prep(TA_OP_GATHER, &go, gin, 2, &gout, 1, &d), TA_E_UNSUPPORTED, &d, "GATHER", "indices type int16");
    /* BROADCAST_TO [2, 6] -> [3, 2, 6]; [2, 6] -> [3, 4, 6] does not broadcast */
    shp[0] = 3, shp[1] = 2, shp[2] = 6;
    operand bin[2] = {a, {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {3}, .data = shp, .data_bytes = 12}};
    operand bout = {.dt = TA_DTYPE_INT8, .rank = 3, .shape = {3, 2, 6}, .nq = 1, .scales = k_scale1, .zps = k_zp0};
    expect(prep(TA_OP_BROADCAST_TO, NULL, bin, 2, &bout, 1, &d), TA_OK, &d, "BROADCAST_TO", "");
    shp[1] = bout.shape[1] = 4;
    expect(prep(TA_OP_BROADCAST_TO, NULL, bin, 2, &bout, 1, &d), TA_E_MALFORMED, &d, "BROADCAST_TO",
           "does not broadcast");
    /* SPACE_TO_DEPTH [1, 4, 6, 2] block 2 -> [1, 2, 3, 8]; block 4 does not divide 6 */
    const int32_t s1462[4] = {1, 4, 6, 2}, s1238[4] = {1, 2, 3, 8};
    ta_op_options bo = ta_op_options_default();
    bo.block_size = 2;
    operand din = act8(4, s1462, k_scale1, k_zp0), dout = act8(4, s1238, k_scale1, k_zp0);
    expect(prep(TA_OP_SPACE_TO_DEPTH, &bo, &din, 1, &dout, 1, &d), TA_OK, &d, "SPACE_TO_DEPTH", "");
    expect(prep(TA_OP_DEPTH_TO_SPACE, &bo, &dout, 1, &din, 1, &d), TA_OK, &d, "DEPTH_TO_SPACE", "");
    bo.block_size = 4;
    expect(prep(TA_OP_SPACE_TO_DEPTH, &bo, &din, 1, &dout, 1, &d), TA_E_MALFORMED, &d, "SPACE_TO_DEPTH",
           "do not match the block size");
    /* SPACE_TO_BATCH_ND [1, 4, 6, 2] block [2, 2] pads 0 -> [4, 2, 3, 2]; a negative padding */
    blk[0] = blk[1] = 2;
    const int32_t s4232[4] = {4, 2, 3, 2};
    operand sbin[3] = {din, {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {2}, .data = blk, .data_bytes = 8},
                       {.dt = TA_DTYPE_INT32, .rank = 2, .shape = {2, 2}, .data = pads, .data_bytes = 16}};
    operand sbout = act8(4, s4232, k_scale1, k_zp0);
    expect(prep(TA_OP_SPACE_TO_BATCH_ND, NULL, sbin, 3, &sbout, 1, &d), TA_OK, &d, "SPACE_TO_BATCH_ND", "");
    pads[1] = -2;
    expect(prep(TA_OP_SPACE_TO_BATCH_ND, NULL, sbin, 3, &sbout, 1, &d), TA_E_MALFORMED, &d, "SPACE_TO_BATCH_ND",
           "non-negative");
    pads[1] = 0;
    /* RESIZE_BILINEAR: align_corners with half_pixel_centers */
    const int32_t s1884[4] = {1, 8, 12, 2};
    shp[0] = 8, shp[1] = 12;
    ta_op_options ro = ta_op_options_default();
    operand rin[2] = {din, {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {2}, .data = shp, .data_bytes = 8}};
    operand rout = act8(4, s1884, k_scale1, k_zp0);
    expect(prep(TA_OP_RESIZE_BILINEAR, &ro, rin, 2, &rout, 1, &d), TA_OK, &d, "RESIZE_BILINEAR", "");
    ro.align_corners = ro.half_pixel_centers = true;
    expect(prep(TA_OP_RESIZE_BILINEAR, &ro, rin, 2, &rout, 1, &d), TA_E_MALFORMED, &d, "RESIZE_BILINEAR",
           "both set");
    /* REDUCE_MAX int8 keeps one quantisation; int16 is TFLM's refusal; SUM int16 runs */
    ax[0] = 1;
    operand rdin[2] = {a, {.dt = TA_DTYPE_INT32, .rank = 1, .shape = {1}, .data = ax, .data_bytes = 4}};
    operand rdout = act8(1, s26, k_scale1, k_zp0);
    expect(prep(TA_OP_REDUCE_MAX, NULL, rdin, 2, &rdout, 1, &d), TA_OK, &d, "REDUCE_MAX", "");
    rdout.zps = k_zp5;
    expect(prep(TA_OP_REDUCE_MIN, NULL, rdin, 2, &rdout, 1, &d), TA_E_UNSUPPORTED, &d, "REDUCE_MIN",
           "share scale and zero point");
    rdin[0].dt = rdout.dt = TA_DTYPE_INT16;
    rdout.zps = k_zp0;
    expect(prep(TA_OP_REDUCE_MAX, NULL, rdin, 2, &rdout, 1, &d), TA_E_UNSUPPORTED, &d, "REDUCE_MAX",
           "input type int16");
    expect(prep(TA_OP_SUM, NULL, rdin, 2, &rdout, 1, &d), TA_OK, &d, "SUM", "");
    /* ADD_N needs two inputs; MIRROR_PAD a known mode */
    expect(prep(TA_OP_ADD_N, NULL, &a, 1, &a, 1, &d), TA_E_MALFORMED, &d, "ADD_N", "2 to 64 inputs");
    ta_op_options mo = ta_op_options_default();
    mo.mirror_mode = 2;
    operand mpin[2] = {a, {.dt = TA_DTYPE_INT32, .rank = 2, .shape = {2, 2}, .data = pads, .data_bytes = 16}};
    expect(prep(TA_OP_MIRROR_PAD, &mo, mpin, 2, &a, 1, &d), TA_E_MALFORMED, &d, "MIRROR_PAD", "neither REFLECT");
    /* float SVDF: runs with RELU, refuses SIGN_BIT */
    static float wf[4 * 8], wt[4 * 2], bias[4];
    ta_op_options so = ta_op_options_default();
    so.rank = 1;
    so.activation = TA_ACT_RELU;
    operand svin[5] = {{.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {1, 8}},
                       {.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {4, 8}, .data = wf, .data_bytes = sizeof wf},
                       {.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {4, 2}, .data = wt, .data_bytes = sizeof wt},
                       {.dt = TA_DTYPE_FLOAT32, .rank = 1, .shape = {4}, .data = bias, .data_bytes = sizeof bias},
                       {.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {1, 8}, .flags = TA_TENSOR_VARIABLE}};
    operand svout = {.dt = TA_DTYPE_FLOAT32, .rank = 2, .shape = {1, 4}};
    expect(prep(TA_OP_SVDF, &so, svin, 5, &svout, 1, &d), TA_OK, &d, "SVDF", "");
    so.activation = TA_ACT_SIGN_BIT;
    expect(prep(TA_OP_SVDF, &so, svin, 5, &svout, 1, &d), TA_E_UNSUPPORTED, &d, "SVDF", "fused activation");
}

int main(void) {
    conv();
    fully_connected();
    elementwise();
    movement();
    recurrent();
    signal_ops();
    part_a();
    part_b();
    return ta_test_finish("test_prepare_ops");
}
