#include "zoo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct {
    zoo_net *z;
    ta_dtype dt;
    int fail;
} builder;

static const char *name(builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *name(builder *b, const char *fmt, ...) {
    zoo_net *z = b->z;
    if (z->n_names >= 4096) return "";
    char *s = z->names[z->n_names++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, 40, fmt, ap);
    va_end(ap);
    return s;
}

static int32_t tensor(builder *b, const char *nm, ta_dtype dt, int rank, const int32_t *shape, uint32_t flags) {
    ta_tensor_desc d;
    memset(&d, 0, sizeof d);
    d.name = nm;
    d.dtype = dt;
    d.rank = rank;
    d.shape = shape;
    d.flags = flags;
    int32_t id = -1;
    if (ta_graph_add_tensor(&b->z->g, &d, &id)) b->fail = 1;
    return id;
}

static int32_t act(builder *b, const char *nm, int h, int w, int c) {
    int32_t s[4] = {1, h, w, c};
    return tensor(b, nm, b->dt, 4, s, 0);
}

static int32_t weights(builder *b, const char *nm, int o, int kh, int kw, int i) {
    int32_t s[4] = {o, kh, kw, i};
    return tensor(b, nm, b->dt, 4, s, TA_TENSOR_CONST);
}

static int32_t bias(builder *b, const char *nm, int c) {
    int32_t s[1] = {c};
    return tensor(b, nm, b->dt == TA_DTYPE_INT8 ? TA_DTYPE_INT32 : b->dt, 1, s, TA_TENSOR_CONST);
}

static void op(builder *b, ta_op_kind k, const int32_t *in, uint32_t nin, int32_t out, const ta_op_options *o) {
    ta_op_desc d;
    memset(&d, 0, sizeof d);
    d.kind = k;
    d.builtin_code = -1;
    d.inputs = in;
    d.n_inputs = nin;
    d.outputs = &out;
    d.n_outputs = 1;
    d.opt = o;
    if (ta_graph_add_op(&b->z->g, &d, NULL)) b->fail = 1;
}

/* conv / depthwise with SAME padding; returns the output tensor. */
static int32_t conv(builder *b, const char *nm, int32_t x, int h, int w, int cin, int cout, int k, int stride,
                    bool depthwise, ta_activation a, int *oh, int *ow) {
    ta_op_options o = ta_op_options_default();
    o.padding = TA_PAD_SAME;
    o.stride_w = o.stride_h = stride;
    o.activation = a;
    int H = (h + stride - 1) / stride, W = (w + stride - 1) / stride;
    int32_t wt = depthwise ? weights(b, name(b, "%s/weights", nm), 1, k, k, cout)
                           : weights(b, name(b, "%s/weights", nm), cout, k, k, cin);
    int32_t bs = bias(b, name(b, "%s/bias", nm), cout);
    int32_t y = act(b, nm, H, W, cout);
    int32_t in[3] = {x, wt, bs};
    op(b, depthwise ? TA_OP_DEPTHWISE_CONV_2D : TA_OP_CONV_2D, in, 3, y, &o);
    *oh = H;
    *ow = W;
    return y;
}

static int begin(zoo_net *z, const char *model_name) {
    memset(z, 0, sizeof *z);
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 1024, .ops = 256, .indices = 2048, .dims = 4096};
    size_t need = ta_graph_bytes(&lim);
    z->mem = cli_xmalloc(need);
    if (ta_graph_init(&z->g, &lim, z->mem, need) || ta_graph_add_subgraph(&z->g, "main", NULL)) return 1;
    z->g.name = model_name;
    return 0;
}

int zoo_mobilenet_v2(zoo_net *z, ta_dtype dt) {
    if (begin(z, dt == TA_DTYPE_INT8 ? "MobileNetV2 1.0 224x224x3 int8 (built in)"
                                     : "MobileNetV2 1.0 224x224x3 float32 (built in)"))
        return 1;
    builder b = {z, dt, 0};
    int h = 224, w = 224, c = 3;
    int32_t input = act(&b, "input", h, w, c);
    int32_t x = conv(&b, "Conv1", input, h, w, c, 32, 3, 2, false, TA_ACT_RELU6, &h, &w);
    c = 32;
    /* (expansion t, output channels c, repeats n, first stride s) */
    static const int cfg[7][4] = {{1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2},
                                  {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    int block = 0;
    for (int g = 0; g < 7; g++) {
        for (int r = 0; r < cfg[g][2]; r++, block++) {
            int t = cfg[g][0], cout = cfg[g][1], s = r == 0 ? cfg[g][3] : 1;
            int32_t in = x, e = x;
            int hh = h, ww = w, ce = c * t;
            if (t != 1) e = conv(&b, name(&b, "block%d/expand", block), x, h, w, c, ce, 1, 1, false, TA_ACT_RELU6, &hh, &ww);
            int32_t dw = conv(&b, name(&b, "block%d/depthwise", block), e, hh, ww, ce, ce, 3, s, true, TA_ACT_RELU6, &hh, &ww);
            int32_t p = conv(&b, name(&b, "block%d/project", block), dw, hh, ww, ce, cout, 1, 1, false, TA_ACT_NONE, &hh, &ww);
            if (s == 1 && c == cout) {
                int32_t sum = act(&b, name(&b, "block%d/add", block), hh, ww, cout);
                int32_t ins[2] = {in, p};
                ta_op_options o = ta_op_options_default();
                op(&b, TA_OP_ADD, ins, 2, sum, &o);
                p = sum;
            }
            x = p;
            h = hh;
            w = ww;
            c = cout;
        }
    }
    x = conv(&b, "Conv_1", x, h, w, c, 1280, 1, 1, false, TA_ACT_RELU6, &h, &w);
    ta_op_options po = ta_op_options_default();
    po.padding = TA_PAD_VALID;
    po.filter_w = w;
    po.filter_h = h;
    po.stride_w = po.stride_h = 1;
    int32_t pooled = act(&b, "avgpool", 1, 1, 1280);
    op(&b, TA_OP_AVERAGE_POOL_2D, &x, 1, pooled, &po);
    int32_t fcw = weights(&b, "logits/weights", 1000, 1, 1, 1280), fcb = bias(&b, "logits/bias", 1000);
    int32_t logits = act(&b, "logits", 1, 1, 1000);
    int32_t fin[3] = {pooled, fcw, fcb};
    ta_op_options co = ta_op_options_default();
    op(&b, TA_OP_CONV_2D, fin, 3, logits, &co);
    int32_t shp[2] = {1, 1000};
    int32_t flat = tensor(&b, "logits/flat", dt, 2, shp, 0);
    op(&b, TA_OP_RESHAPE, &logits, 1, flat, NULL);
    int32_t prob = tensor(&b, "probabilities", dt, 2, shp, 0);
    op(&b, TA_OP_SOFTMAX, &flat, 1, prob, NULL);
    if (!b.fail) b.fail = ta_graph_set_io(&z->g, &input, 1, &prob, 1) != TA_OK;
    return b.fail;
}

int zoo_small_cnn(zoo_net *z) {
    if (begin(z, "design notes' CNN 32x32x1 int8 (built in)")) return 1;
    builder b = {z, TA_DTYPE_INT8, 0};
    int32_t input = act(&b, "input", 32, 32, 1);
    ta_op_options o = ta_op_options_default();
    o.padding = TA_PAD_VALID;
    o.activation = TA_ACT_RELU;
    int32_t w1 = weights(&b, "conv1/weights", 8, 3, 3, 1), b1 = bias(&b, "conv1/bias", 8);
    int32_t c1 = act(&b, "conv1", 30, 30, 8);
    int32_t in1[3] = {input, w1, b1};
    op(&b, TA_OP_CONV_2D, in1, 3, c1, &o);
    ta_op_options p = ta_op_options_default();
    p.padding = TA_PAD_VALID;
    p.filter_w = p.filter_h = 2;
    p.stride_w = p.stride_h = 2;
    int32_t p1 = act(&b, "pool1", 15, 15, 8);
    op(&b, TA_OP_MAX_POOL_2D, &c1, 1, p1, &p);
    int32_t w2 = weights(&b, "conv2/weights", 16, 3, 3, 8), b2 = bias(&b, "conv2/bias", 16);
    int32_t c2 = act(&b, "conv2", 13, 13, 16);
    int32_t in2[3] = {p1, w2, b2};
    op(&b, TA_OP_CONV_2D, in2, 3, c2, &o);
    int32_t p2 = act(&b, "pool2", 6, 6, 16);
    op(&b, TA_OP_MAX_POOL_2D, &c2, 1, p2, &p);
    int32_t fs[2] = {1, 576};
    int32_t flat = tensor(&b, "flatten", TA_DTYPE_INT8, 2, fs, 0);
    op(&b, TA_OP_RESHAPE, &p2, 1, flat, NULL);
    int32_t ws[2] = {10, 576}, bs[1] = {10}, os[2] = {1, 10};
    int32_t w3 = tensor(&b, "dense/weights", TA_DTYPE_INT8, 2, ws, TA_TENSOR_CONST);
    int32_t b3 = tensor(&b, "dense/bias", TA_DTYPE_INT32, 1, bs, TA_TENSOR_CONST);
    int32_t out = tensor(&b, "dense", TA_DTYPE_INT8, 2, os, 0);
    int32_t in3[3] = {flat, w3, b3};
    ta_op_options fo = ta_op_options_default();
    op(&b, TA_OP_FULLY_CONNECTED, in3, 3, out, &fo);
    if (!b.fail) b.fail = ta_graph_set_io(&z->g, &input, 1, &out, 1) != TA_OK;
    return b.fail;
}

void zoo_free(zoo_net *z) {
    free(z->mem);
    z->mem = NULL;
}
