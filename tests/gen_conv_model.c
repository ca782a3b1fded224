/* gen_conv_model OUT.tflite: writes a small float32 CNN whose first ops the
 * planner runs band by band (patch.h) under the default options, for the
 * tests of the pictures that must not depend on the shared models
 * (viz_check.sh):
 *   input 1x96x32x4 -> CONV_2D 3x3 SAME (16, ReLU) -> DEPTHWISE_CONV_2D 3x3
 *   SAME (ReLU) -> CONV_2D 3x3 SAME stride 2 (8) -> MAX_POOL_2D 2x2 stride 2
 *   -> output 1x24x8x8.
 * Layer by layer the two 192 KB tensors in the middle are live together (or
 * one, with the depthwise conv in place); in bands only their rows for one
 * band are: the planner takes ops 0..3 in 6 bands for 9.65% extra MACs.
 * The weights are a fixed pseudo-random stream (the pictures do not depend
 * on them). */
#include <stdio.h>
#include <stdlib.h>

/* the writer's field tables list only the fields they set (as in
 * test_hostile.c and test_control_flow.c) */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include "tflite_writer.h"

static float w0[16 * 3 * 3 * 4], b0[16], w1[1 * 3 * 3 * 16], b1[16], w2[8 * 3 * 3 * 16], b2[8];

static void fill(float *v, size_t n, uint32_t *seed) {
    for (size_t i = 0; i < n; i++) {
        *seed = *seed * 1664525u + 1013904223u;
        v[i] = ((float)(*seed >> 9) / (float)(1u << 23) - 0.5f) * 0.5f;
    }
}

static odesc conv(int32_t code, int32_t in, int32_t w, int32_t b, int32_t out, int32_t stride) {
    odesc o = {code, 3, 1, {in, w, b}, {out}, NULL, NULL, 0, 0, 0, {{0}}};
    int k = 0;
    o.opt_type = code == TFL_OP_CONV_2D ? TFL_OPT_CONV2D : TFL_OPT_DEPTHWISE_CONV2D;
    o.opt[k++] = (fld){F_U8, TFL_PADDING_SAME, 0, NULL};
    o.opt[k++] = (fld){F_I32, stride, 0, NULL}; /* stride_w */
    o.opt[k++] = (fld){F_I32, stride, 0, NULL}; /* stride_h */
    if (code == TFL_OP_DEPTHWISE_CONV_2D) o.opt[k++] = (fld){F_I32, 1, 0, NULL}; /* depth_multiplier */
    o.opt[k++] = (fld){F_U8, 1, 0, NULL};                                         /* fused activation: RELU */
    o.opt[k++] = (fld){F_I32, 1, 0, NULL};                                        /* dilation_w */
    o.opt[k++] = (fld){F_I32, 1, 0, NULL};                                        /* dilation_h */
    o.n_opt = k;
    return o;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: gen_conv_model OUT.tflite\n");
        return 2;
    }
    uint32_t seed = 13;
    fill(w0, sizeof w0 / 4, &seed);
    fill(b0, sizeof b0 / 4, &seed);
    fill(w1, sizeof w1 / 4, &seed);
    fill(b1, sizeof b1 / 4, &seed);
    fill(w2, sizeof w2 / 4, &seed);
    fill(b2, sizeof b2 / 4, &seed);
    mdesc m;
    memset(&m, 0, sizeof m);
    m.nsg = 1;
    sgdesc *g = &m.sg[0];
    g->t[0] = tf32(4, 1, 96, 32, 4);
    g->t[1] = tconst(tf32(4, 16, 3, 3, 4), w0, sizeof w0);
    g->t[2] = tconst(tf32(1, 16, 0, 0, 0), b0, sizeof b0);
    g->t[3] = tf32(4, 1, 96, 32, 16);
    g->t[4] = tconst(tf32(4, 1, 3, 3, 16), w1, sizeof w1);
    g->t[5] = tconst(tf32(1, 16, 0, 0, 0), b1, sizeof b1);
    g->t[6] = tf32(4, 1, 96, 32, 16);
    g->t[7] = tconst(tf32(4, 8, 3, 3, 16), w2, sizeof w2);
    g->t[8] = tconst(tf32(1, 8, 0, 0, 0), b2, sizeof b2);
    g->t[9] = tf32(4, 1, 48, 16, 8);
    g->t[10] = tf32(4, 1, 24, 8, 8);
    g->nt = 11;
    g->o[0] = conv(TFL_OP_CONV_2D, 0, 1, 2, 3, 1);
    g->o[1] = conv(TFL_OP_DEPTHWISE_CONV_2D, 3, 4, 5, 6, 1);
    g->o[2] = conv(TFL_OP_CONV_2D, 6, 7, 8, 9, 2);
    odesc pool = {TFL_OP_MAX_POOL_2D, 1, 1, {9}, {10}, NULL, NULL, 0, 0, 0, {{0}}};
    pool.opt_type = TFL_OPT_POOL2D;
    pool.n_opt = 6; /* padding, stride_w, stride_h, filter_width, filter_height, activation */
    pool.opt[0] = (fld){F_U8, TFL_PADDING_VALID, 0, NULL};
    for (int k = 1; k <= 4; k++) pool.opt[k] = (fld){F_I32, 2, 0, NULL};
    pool.opt[5] = (fld){F_U8, 0, 0, NULL};
    g->o[3] = pool;
    g->no = 4;
    const int32_t in = 0, out = 10;
    io(g, 1, &in, 1, &out);
    size_t len;
    unsigned char *b = write_model(&m, &len);
    FILE *f = fopen(argv[1], "wb");
    const size_t wrote = f ? fwrite(b, 1, len, f) : 0;
    free(b);
    /* a short write or a failed close (the data never reached the file) alike */
    if (!f || (fclose(f) != 0) | (wrote != len)) {
        fprintf(stderr, "gen_conv_model: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
