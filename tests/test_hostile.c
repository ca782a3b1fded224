/* Hostile models (issue 9): hand-built TFLite files, each breaking one rule
 * an attacker would try, go through the whole library path -- open, import
 * (which runs the graph validator), runtime query, init and invoke -- and
 * must be refused with a one-line diag naming the op and tensor at the
 * stage that owns the rule, or run and give the right bytes.  Run under
 * ASan + UBSan by `make test`, so an out-of-bounds access or an undefined
 * operation fails the test even where the diag would look right.
 *
 * The models come from a small FlatBuffer writer of this file (no files
 * outside the repository).  `test_hostile --write DIR` writes every case to
 * DIR/<name>.tflite and DIR/cases.tsv (name, stage, expected text) for
 * tests/hostile_cli.sh, which runs the CLI on them. */
#include <stdint.h>
#include <stdlib.h>

/* The case tables leave fields out on purpose: zero is "absent" throughout. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <string.h>

#include "testutil.h"
#include "tflite/schema_ids.h"
#include "tinyarena/graph.h"
#include "tinyarena/runtime.h"
#include "tinyarena/tflite.h"

#include "tflite_writer.h"


static const float k_w[64] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                              23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                              13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const float k_ten[4] = {10, 20, 30, 40};
static const int8_t k_w8[64] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
static const int32_t k_b32[4] = {100, -100, 7, 9};

/* ADD: t0 (input) + t1 (const) -> t2 */
static void base_add(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g->nt = 3;
    g->t[0] = tf32(1, 4, 0, 0, 0);
    g->t[1] = tconst(tf32(1, 4, 0, 0, 0), k_ten, sizeof k_ten);
    g->t[2] = tf32(1, 4, 0, 0, 0);
    g->no = 1;
    g->o[0] = op2(TFL_OP_ADD, 0, 1, 2);
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){2});
}

/* float CONV_2D (kind 0), DEPTHWISE_CONV_2D (1) or FULLY_CONNECTED (2)
 * with 2 output channels and a bias of `bias_n` elements. */
static void base_weights(mdesc *m, int kind, int bias_n, int8_t type) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    const bool q = type == TFL_TYPE_INT8;
    const size_t es = q ? 1 : 4;
    const void *wdata = q ? (const void *)k_w8 : (const void *)k_w;
    g->nt = 4;
    if (kind == 0) { /* 1x4x4x1 (*) 2x3x3x1 VALID -> 1x2x2x2 */
        g->t[0] = tf32(4, 1, 4, 4, 1);
        g->t[1] = tconst(tf32(4, 2, 3, 3, 1), wdata, 18 * es);
        g->t[3] = tf32(4, 1, 2, 2, 2);
        g->o[0] = (odesc){TFL_OP_CONV_2D, 3, 1, {0, 1, 2}, {3}, NULL, NULL, 0, TFL_OPT_CONV2D, 6,
                          {{F_U8, TFL_PADDING_VALID}, {F_I32, 1}, {F_I32, 1}, {F_U8, 0}, {F_I32, 1}, {F_I32, 1}}};
    } else if (kind == 1) { /* 1x4x4x1 dw 1x3x3x2 (multiplier 2) VALID -> 1x2x2x2 */
        g->t[0] = tf32(4, 1, 4, 4, 1);
        g->t[1] = tconst(tf32(4, 1, 3, 3, 2), wdata, 18 * es);
        g->t[3] = tf32(4, 1, 2, 2, 2);
        g->o[0] = (odesc){TFL_OP_DEPTHWISE_CONV_2D, 3, 1, {0, 1, 2}, {3}, NULL, NULL, 0, TFL_OPT_DEPTHWISE_CONV2D, 7,
                          {{F_U8, TFL_PADDING_VALID}, {F_I32, 1}, {F_I32, 1}, {F_I32, 2}, {F_U8, 0}, {F_I32, 1}, {F_I32, 1}}};
    } else { /* 1x8 fc 2x8 -> 1x2 */
        g->t[0] = tf32(2, 1, 8, 0, 0);
        g->t[1] = tconst(tf32(2, 2, 8, 0, 0), wdata, 16 * es);
        g->t[3] = tf32(2, 1, 2, 0, 0);
        g->o[0] = (odesc){TFL_OP_FULLY_CONNECTED, 3, 1, {0, 1, 2}, {3}, NULL, NULL, 0, TFL_OPT_FULLY_CONNECTED, 1, {{F_U8, 0}}};
    }
    g->t[2] = q ? tconst((tdesc){TFL_TYPE_INT32, 1, {bias_n}}, k_b32, 4 * (size_t)bias_n)
                : tconst(tf32(1, bias_n, 0, 0, 0), k_w, 4 * (size_t)bias_n);
    if (q) {
        g->t[0].type = g->t[1].type = g->t[3].type = TFL_TYPE_INT8;
        g->t[0].scale = 0.5f;
        g->t[1].scale = 0.25f;
        g->t[3].scale = 1.0f;
        g->t[2].scale = 0.125f;
    }
    g->no = 1;
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){3});
}

/* STRIDED_SLICE of a float [4] with begin/end/stride constants and masks */
static int32_t g_slice[3][1];
static void base_slice(mdesc *m, int32_t b, int32_t e, int32_t s, int32_t out_n, bool offset) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g_slice[0][0] = b;
    g_slice[1][0] = e;
    g_slice[2][0] = s;
    g->nt = 5;
    g->t[0] = tf32(1, 4, 0, 0, 0);
    for (int i = 0; i < 3; i++) g->t[1 + i] = tconst((tdesc){TFL_TYPE_INT32, 1, {1}}, g_slice[i], 4);
    g->t[4] = tf32(1, out_n, 0, 0, 0);
    g->no = 1;
    g->o[0] = (odesc){TFL_OP_STRIDED_SLICE, 4, 1, {0, 1, 2, 3}, {4}, NULL, NULL, 0, TFL_OPT_STRIDED_SLICE, 6,
                      {{F_I32, 0}, {F_I32, 0}, {F_I32, 0}, {F_I32, 0}, {F_I32, 0}, {F_U8, offset}}};
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){4});
}


/* ---- indexing ops (issue 18 part B): indices are data ------------------------ */

/* t0 (input, int32 [2], zeros) + t1 (const idx) -> t2 indices; t3 params
 * (const float [4]); kind(t3, t2) -> t4.  The indices are computed, so only
 * invoke can see them out of range. */
static const float k_p4[4] = {1, 2, 3, 4};
static int32_t g_idx[2];
static void base_index(mdesc *m, int32_t code, int32_t i0, int32_t i1) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g_idx[0] = i0;
    g_idx[1] = i1;
    g->nt = 5;
    g->t[0] = (tdesc){TFL_TYPE_INT32, 1, {2}};
    g->t[1] = tconst((tdesc){TFL_TYPE_INT32, 1, {2}}, g_idx, sizeof g_idx);
    g->t[2] = (tdesc){TFL_TYPE_INT32, 1, {2}};
    g->t[3] = tconst(tf32(1, 4, 0, 0, 0), k_p4, sizeof k_p4);
    g->t[4] = tf32(1, 2, 0, 0, 0);
    g->no = 2;
    g->o[0] = op2(TFL_OP_ADD, 0, 1, 2);
    if (code == TFL_OP_EMBEDDING_LOOKUP) {
        g->t[3] = tconst(tf32(2, 4, 1, 0, 0), k_p4, sizeof k_p4);
        g->t[4] = tf32(2, 2, 1, 0, 0);
        g->o[1] = op2(code, 2, 3, 4);
    } else if (code == TFL_OP_GATHER_ND) {
        g->t[2] = (tdesc){TFL_TYPE_INT32, 2, {2, 1}};
        g->t[0].rank = g->t[1].rank = 2;
        g->t[0].shape[1] = g->t[1].shape[1] = 1;
        g->o[1] = op2(code, 3, 2, 4);
    } else {
        g->o[1] = op2(code, 3, 2, 4);
        g->o[1].opt_type = TFL_OPT_GATHER;
        g->o[1].n_opt = 1;
        g->o[1].opt[0] = (fld){F_I32, 0};
    }
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){4});
}
static void c_gather_index_high(mdesc *m) { base_index(m, TFL_OP_GATHER, 1, 4); }
static void c_gather_index_negative(mdesc *m) { base_index(m, TFL_OP_GATHER, -1, 0); }
static void c_gather_nd_index_high(mdesc *m) { base_index(m, TFL_OP_GATHER_ND, 2, 7); }
static void c_embedding_index_high(mdesc *m) { base_index(m, TFL_OP_EMBEDDING_LOOKUP, 0, INT32_MAX); }
static void c_gather_valid(mdesc *m) {
    base_index(m, TFL_OP_GATHER, 3, 0);
    /* gather the input itself, reversed by constant indices: [4, 3, 2, 1] */
    static const int32_t rev[4] = {3, 2, 1, 0};
    sgdesc *g = &m->sg[0];
    g->nt = 3;
    g->t[0] = tf32(1, 4, 0, 0, 0);
    g->t[1] = tconst((tdesc){TFL_TYPE_INT32, 1, {4}}, rev, sizeof rev);
    g->t[2] = tf32(1, 4, 0, 0, 0);
    g->no = 1;
    odesc o = op2(TFL_OP_GATHER, 0, 1, 2);
    o.opt_type = TFL_OPT_GATHER;
    o.n_opt = 1;
    o.opt[0] = (fld){F_I32, 0};
    g->o[0] = o;
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){2});
}
static const float k_rev4[4] = {4, 3, 2, 1};
static void c_gather_const_high(mdesc *m) {
    c_gather_valid(m);
    static const int32_t bad[4] = {3, 2, 4, 0};
    m->sg[0].t[1].data = bad;
}
/* MIRROR_PAD of a float [4] by `pad` on each side (REFLECT): at most 3 */
static int32_t g_mpad[2];
static void base_mirror(mdesc *m, int32_t before, int32_t after) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g_mpad[0] = before;
    g_mpad[1] = after;
    g->nt = 3;
    g->t[0] = tf32(1, 4, 0, 0, 0);
    g->t[1] = tconst((tdesc){TFL_TYPE_INT32, 2, {1, 2}}, g_mpad, sizeof g_mpad);
    g->t[2] = tf32(1, 4 + before + after, 0, 0, 0);
    g->no = 1;
    g->o[0] = op2(TFL_OP_MIRROR_PAD, 0, 1, 2);
    g->o[0].opt_type = TFL_OPT_MIRROR_PAD;
    g->o[0].n_opt = 1;
    g->o[0].opt[0] = (fld){F_U8, 0};
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){2});
}
/* REDUCE_MAX over axis 0 of an empty [0, 4] input: the fuzzer's SUM
 * finding (an empty input has no address); the output is TFLM's initial
 * value, the lowest float */
static const int32_t k_axis0[1] = {0};
static const float k_lowest4[4] = {-3.40282347e+38f, -3.40282347e+38f, -3.40282347e+38f, -3.40282347e+38f};
static void c_reduce_max_empty(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g->nt = 3;
    g->t[0] = tf32(2, 0, 4, 0, 0);
    g->t[1] = tconst((tdesc){TFL_TYPE_INT32, 1, {1}}, k_axis0, sizeof k_axis0);
    g->t[2] = tf32(1, 4, 0, 0, 0);
    g->no = 1;
    g->o[0] = op2(TFL_OP_REDUCE_MAX, 0, 1, 2);
    g->o[0].opt_type = TFL_OPT_REDUCER;
    g->o[0].n_opt = 1;
    g->o[0].opt[0] = (fld){F_U8, 0};
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){2});
}
static void c_mirror_pad_wide(mdesc *m) { base_mirror(m, 4, 0); }
static void c_mirror_pad_negative(mdesc *m) { base_mirror(m, -2, 2); }
static void c_gather_nd_deep(mdesc *m) {
    base_index(m, TFL_OP_GATHER_ND, 0, 0);
    sgdesc *g = &m->sg[0]; /* indices [1, 2]: depth 2 into a 1-D params */
    g->t[0] = (tdesc){TFL_TYPE_INT32, 2, {1, 2}};
    g->t[1] = tconst((tdesc){TFL_TYPE_INT32, 2, {1, 2}}, g_idx, sizeof g_idx);
    g->t[2] = (tdesc){TFL_TYPE_INT32, 2, {1, 2}};
    g->t[4] = tf32(1, 1, 0, 0, 0);
}

/* ---- the cases ---------------------------------------------------------------- */

typedef enum {
    AT_IMPORT,  /* open or import (the validator) refuses */
    AT_PREPARE, /* imports; the runtime's query (prepare) refuses */
    RUNS,       /* runs; output 0 equals `want` for input `in` */
    EITHER,     /* refused at some stage with one line, or runs */
    AT_INVOKE   /* prepares; invoke refuses (data-dependent: indices out of range) */
} stage_t;

static const char *const k_stage[] = {"import", "prepare", "runs", "either", "invoke"};

typedef struct {
    const char *name;
    stage_t stage;
    const char *text; /* in the diag (refusals) */
    void (*build)(mdesc *m);
    const float *in, *want; /* RUNS: float input 0 and output 0 (4 values) */
} hcase;

static const float k_in4[4] = {1, 2, 3, 4}, k_sum4[4] = {11, 22, 33, 44};

static void c_valid_add(mdesc *m) { base_add(m); }
static void c_unknown_options(mdesc *m) {
    base_add(m);
    m->sg[0].o[0].opt_type = 250; /* newer than any schema this reader knows */
    m->sg[0].o[0].n_opt = 1;
    m->sg[0].o[0].opt[0] = (fld){F_I32, 12345};
}
static void c_conv_f32_bias(mdesc *m) { base_weights(m, 0, 1, TFL_TYPE_FLOAT32); }
static void c_dw_f32_bias(mdesc *m) { base_weights(m, 1, 1, TFL_TYPE_FLOAT32); }
static void c_fc_f32_bias(mdesc *m) { base_weights(m, 2, 1, TFL_TYPE_FLOAT32); }
static void c_conv_s8_bias(mdesc *m) { base_weights(m, 0, 1, TFL_TYPE_INT8); }
static void c_fc_f32_bias_long(mdesc *m) { base_weights(m, 2, 3, TFL_TYPE_FLOAT32); }
static void c_conv_groups(mdesc *m) {
    /* 2 input channels, filter 3x1x1x1: 2 groups of 1.5 filters */
    base_weights(m, 0, 3, TFL_TYPE_FLOAT32);
    sgdesc *g = &m->sg[0];
    g->t[0] = tf32(4, 1, 2, 2, 2);
    g->t[1] = tconst(tf32(4, 3, 1, 1, 1), k_w, 12);
    g->t[3] = tf32(4, 1, 2, 2, 3);
}
static void c_dilation0(mdesc *m) {
    base_weights(m, 0, 2, TFL_TYPE_FLOAT32);
    m->sg[0].o[0].opt[4] = (fld){F_I32, 0};
}
static void c_const_output(mdesc *m) {
    base_add(m);
    m->sg[0].o[0].out[0] = 1; /* writes the constant */
    m->sg[0].out[0] = 1;
}
static void c_variable_output(mdesc *m) {
    base_add(m);
    m->sg[0].t[2].variable = 1;
}
static void c_input_output(mdesc *m) {
    base_add(m);
    m->sg[0].o[0].out[0] = 0; /* overwrites the graph input */
    m->sg[0].out[0] = 0;
}
static void c_self_read(mdesc *m) {
    base_add(m);
    m->sg[0].o[0].in[1] = 2; /* t2 = t0 + t2 */
}
static void c_cycle(mdesc *m) {
    /* op 0: t2 = t0 + t3; op 1: t3 = t2 + t0 */
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->nt = 4;
    g->t[3] = tf32(1, 4, 0, 0, 0);
    g->no = 2;
    g->o[0] = op2(TFL_OP_ADD, 0, 3, 2);
    g->o[1] = op2(TFL_OP_ADD, 2, 0, 3);
}
static void c_two_writers(mdesc *m) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->no = 2;
    g->o[1] = op2(TFL_OP_ADD, 0, 0, 2);
}
static void c_read_before_write(mdesc *m) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->nt = 4;
    g->t[3] = tf32(1, 4, 0, 0, 0); /* no data, no writer, not an input */
    g->o[0].in[1] = 3;
}
static void c_no_outputs(mdesc *m) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->no = 2;
    g->o[1] = op2(TFL_OP_ADD, 0, 1, 2);
    g->o[1].n_out = 0;
    g->o[0].out[0] = 2;
}
/* Subgraphs 0..n-1; subgraph i calls target[i] (-1: an ADD instead). */
static void calls(mdesc *m, int n, const int *target, int32_t code, int opt_type, int n_opt) {
    memset(m, 0, sizeof *m);
    m->nsg = n;
    for (int s = 0; s < n; s++) {
        sgdesc *g = &m->sg[s];
        g->nt = 2;
        g->t[0] = tf32(1, 4, 0, 0, 0);
        g->t[1] = tf32(1, 4, 0, 0, 0);
        g->no = 1;
        io(g, 1, (int32_t[]){0}, 1, (int32_t[]){1});
        if (target[s] < 0) {
            g->o[0] = op2(TFL_OP_ADD, 0, 0, 1);
            continue;
        }
        g->o[0] = (odesc){code, 1, 1, {0}, {1}, NULL, NULL, 0, opt_type, n_opt, {{F_I32, target[s]}, {F_I32, target[s]}}};
    }
}
static void c_call_recursion(mdesc *m) { calls(m, 3, (int[]){1, 2, 1}, TFL_OP_CALL, TFL_OPT_CALL, 1); }
static void c_call_chain(mdesc *m) { calls(m, 3, (int[]){1, 2, -1}, TFL_OP_CALL, TFL_OPT_CALL, 1); }
static void c_if_no_options(mdesc *m) { calls(m, 2, (int[]){1, -1}, TFL_OP_IF, 0, 0); }
static void c_if_empty_options(mdesc *m) { calls(m, 2, (int[]){1, -1}, TFL_OP_IF, TFL_OPT_IF, 0); }
static void c_while_no_options(mdesc *m) { calls(m, 2, (int[]){1, -1}, TFL_OP_WHILE, 0, 0); }
/* Control flow and resource variables (issue 18): well-formed ones run
 * (test_control_flow checks their values over invokes and modes), each
 * broken one is refused with one line.  sg0: IF(cond t0 bool[1], t1) ->
 * t2, then = 1, else = 2 (each t0 + t0); the harness's input 0 is the
 * condition (zeroed: else), input 1 zeros. */
static const float k_one4[4] = {1, 1, 1, 1}, k_zero4[4] = {0, 0, 0, 0}, k_in4x2[4] = {2, 4, 6, 8};
static tdesc tbool1(void) {
    tdesc t = {TFL_TYPE_BOOL, 1, {1, 0, 0, 0, 0}, NULL, 0, 0, 0.0f, 0};
    return t;
}
static void add_sg(sgdesc *g) {
    g->nt = 2;
    g->t[0] = tf32(2, 1, 4, 0, 0);
    g->t[1] = tf32(2, 1, 4, 0, 0);
    g->no = 1;
    g->o[0] = op2(TFL_OP_ADD, 0, 0, 1);
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){1});
}
static void c_if_valid(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 3;
    sgdesc *g = &m->sg[0];
    g->nt = 3;
    g->t[0] = tbool1();
    g->t[1] = tf32(2, 1, 4, 0, 0);
    g->t[2] = tf32(2, 1, 4, 0, 0);
    g->no = 1;
    g->o[0] = (odesc){TFL_OP_IF, 2, 1, {0, 1}, {2}, NULL, NULL, 0, TFL_OPT_IF, 2, {{F_I32, 1}, {F_I32, 2}}};
    io(g, 2, (int32_t[]){0, 1}, 1, (int32_t[]){2});
    add_sg(&m->sg[1]);
    add_sg(&m->sg[2]);
}
/* then-branch input of another shape than the op's input */
static void c_if_shape_mismatch(mdesc *m) {
    c_if_valid(m);
    m->sg[1].t[0] = tf32(2, 1, 3, 0, 0);
    m->sg[1].t[1] = tf32(2, 1, 3, 0, 0);
}
/* the then-branch's input is a constant: IF would copy into the model */
static void c_if_const_input(mdesc *m) {
    c_if_valid(m);
    m->sg[1].t[0] = tconst(tf32(2, 1, 4, 0, 0), k_one4, sizeof k_one4);
}
/* then and else are one subgraph: two calls of it */
static void c_if_same_branches(mdesc *m) {
    c_if_valid(m);
    m->sg[0].o[0].opt[1].v = 1;
}
static void c_if_bad_index(mdesc *m) {
    c_if_valid(m);
    m->sg[0].o[0].opt[1].v = 5;
}
/* sg0: WHILE(t0 [1,4], t1 [1]) -> (t2, t3), cond 1: t1 < 10, body 2:
 * (t0 + t0, t1 + 1): ten iterations from t1 = 0, t0 x 1024 */
static const float k_ten1[1] = {10}, k_one1[1] = {1};
static const float k_in4x1024[4] = {1024, 2048, 3072, 4096};
static void c_while_valid(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 3;
    sgdesc *g = &m->sg[0];
    g->nt = 4;
    g->t[0] = tf32(2, 1, 4, 0, 0);
    g->t[1] = tf32(1, 1, 0, 0, 0);
    g->t[2] = tf32(2, 1, 4, 0, 0);
    g->t[3] = tf32(1, 1, 0, 0, 0);
    g->no = 1;
    g->o[0] = (odesc){TFL_OP_WHILE, 2, 2, {0, 1}, {2, 3}, NULL, NULL, 0, TFL_OPT_WHILE, 2, {{F_I32, 1}, {F_I32, 2}}};
    io(g, 2, (int32_t[]){0, 1}, 2, (int32_t[]){2, 3});
    sgdesc *c = &m->sg[1];
    c->nt = 4;
    c->t[0] = tf32(2, 1, 4, 0, 0);
    c->t[1] = tf32(1, 1, 0, 0, 0);
    c->t[2] = tconst(tf32(1, 1, 0, 0, 0), k_ten1, sizeof k_ten1);
    c->t[3] = tbool1();
    c->no = 1;
    c->o[0] = op2(TFL_OP_LESS, 1, 2, 3);
    io(c, 2, (int32_t[]){0, 1}, 1, (int32_t[]){3});
    sgdesc *b = &m->sg[2];
    b->nt = 5;
    b->t[0] = tf32(2, 1, 4, 0, 0);
    b->t[1] = tf32(1, 1, 0, 0, 0);
    b->t[2] = tconst(tf32(1, 1, 0, 0, 0), k_one1, sizeof k_one1);
    b->t[3] = tf32(2, 1, 4, 0, 0);
    b->t[4] = tf32(1, 1, 0, 0, 0);
    b->no = 2;
    b->o[0] = op2(TFL_OP_ADD, 0, 0, 3);
    b->o[1] = op2(TFL_OP_ADD, 1, 2, 4);
    io(b, 2, (int32_t[]){0, 1}, 2, (int32_t[]){3, 4});
}
/* the cond's output is bool[1,4] (TFLM would read its first byte) */
static void c_while_cond_not_scalar(mdesc *m) {
    c_while_valid(m);
    sgdesc *c = &m->sg[1];
    c->t[2] = tconst(tf32(2, 1, 4, 0, 0), k_one4, sizeof k_one4);
    c->t[3] = (tdesc){TFL_TYPE_BOOL, 2, {1, 4}};
    c->o[0] = op2(TFL_OP_LESS, 0, 2, 3);
}
/* the body calls back into subgraph 0: a cycle */
static void c_while_cycle(mdesc *m) {
    c_while_valid(m);
    sgdesc *b = &m->sg[2];
    b->no = 1;
    b->o[0] = (odesc){TFL_OP_WHILE, 2, 2, {0, 1}, {3, 4}, NULL, NULL, 0, TFL_OPT_WHILE, 2, {{F_I32, 1}, {F_I32, 0}}};
}
/* sg0: CALL_ONCE(init = 1), then ADD t0 + t0 -> t1; sg1: a constant plus
 * itself into its output (an init subgraph takes no inputs) */
static void c_call_once_valid(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 2;
    sgdesc *g = &m->sg[0];
    add_sg(g);
    g->no = 2;
    g->o[1] = g->o[0];
    g->o[0] = (odesc){TFL_OP_CALL_ONCE, 0, 0, {0}, {0}, NULL, NULL, 0, TFL_OPT_CALL_ONCE, 1, {{F_I32, 1}}};
    sgdesc *i = &m->sg[1];
    i->nt = 2;
    i->t[0] = tconst(tf32(2, 1, 4, 0, 0), k_one4, sizeof k_one4);
    i->t[1] = tf32(2, 1, 4, 0, 0);
    i->no = 1;
    i->o[0] = op2(TFL_OP_ADD, 0, 0, 1);
    io(i, 0, (int32_t[]){0}, 1, (int32_t[]){1});
}
/* sg0: VAR_HANDLE -> t1 (resource), READ_VARIABLE(t1) -> t2, t2 + t0 -> t3;
 * ASSIGN_VARIABLE(t1, t3) when `assign`; the handle named `name` (NULL: no
 * options at all) */
static void var_model(mdesc *m, const char *name, bool assign) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g->nt = 4;
    g->t[0] = tf32(2, 1, 4, 0, 0);
    g->t[1] = (tdesc){TFL_TYPE_RESOURCE, 0, {0}, NULL, 0, 0, 0.0f, 0};
    g->t[2] = tf32(2, 1, 4, 0, 0);
    g->t[3] = tf32(2, 1, 4, 0, 0);
    g->no = assign ? 4 : 3;
    g->o[0] = (odesc){TFL_OP_VAR_HANDLE, 0, 1, {0}, {1}, NULL, NULL, 0, 0, 0, {{0}}};
    if (name) g->o[0] = (odesc){TFL_OP_VAR_HANDLE, 0, 1, {0}, {1}, NULL, NULL, 0, TFL_OPT_VAR_HANDLE, 2, {{F_ABSENT}, {F_STR, 0, 0, name}}};
    g->o[1] = (odesc){TFL_OP_READ_VARIABLE, 1, 1, {1}, {2}, NULL, NULL, 0, 0, 0, {{0}}};
    g->o[2] = op2(TFL_OP_ADD, 2, 0, 3);
    g->o[3] = (odesc){TFL_OP_ASSIGN_VARIABLE, 2, 0, {1, 3}, {0}};
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){3});
}
static void c_var_read(mdesc *m) { var_model(m, NULL, true); }
static void c_var_unassigned(mdesc *m) { var_model(m, "v", false); }
static void c_var_valid(mdesc *m) { var_model(m, "v", true); }
/* the variable is assigned a [1,3] input, then read into a [1,4] tensor */
static void c_var_size_mismatch(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g->nt = 3;
    g->t[0] = tf32(2, 1, 3, 0, 0);
    g->t[1] = (tdesc){TFL_TYPE_RESOURCE, 0, {0}};
    g->t[2] = tf32(2, 1, 4, 0, 0);
    g->no = 3;
    g->o[0] = (odesc){TFL_OP_VAR_HANDLE, 0, 1, {0}, {1}, NULL, NULL, 0, TFL_OPT_VAR_HANDLE, 2, {{F_ABSENT}, {F_STR, 0, 0, "v"}}};
    g->o[1] = (odesc){TFL_OP_ASSIGN_VARIABLE, 2, 0, {1, 0}, {0}};
    g->o[2] = (odesc){TFL_OP_READ_VARIABLE, 1, 1, {1}, {2}};
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){2});
}
/* IF passes a handle into its then-branch, which reads it there */
static void c_var_handle_crosses(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 3;
    sgdesc *g = &m->sg[0];
    g->nt = 4;
    g->t[0] = tbool1();
    g->t[1] = (tdesc){TFL_TYPE_RESOURCE, 0, {0}};
    g->t[2] = tf32(2, 1, 4, 0, 0);
    g->t[3] = tf32(2, 1, 4, 0, 0);
    g->no = 3;
    g->o[0] = (odesc){TFL_OP_VAR_HANDLE, 0, 1, {0}, {1}, NULL, NULL, 0, TFL_OPT_VAR_HANDLE, 2, {{F_ABSENT}, {F_STR, 0, 0, "v"}}};
    g->o[1] = (odesc){TFL_OP_ASSIGN_VARIABLE, 2, 0, {1, 2}, {0}};
    g->o[2] = (odesc){TFL_OP_IF, 2, 1, {0, 1}, {3}, NULL, NULL, 0, TFL_OPT_IF, 2, {{F_I32, 1}, {F_I32, 2}}};
    io(g, 2, (int32_t[]){0, 2}, 1, (int32_t[]){3});
    for (int s = 1; s < 3; s++) {
        sgdesc *b = &m->sg[s];
        b->nt = 2;
        b->t[0] = (tdesc){TFL_TYPE_RESOURCE, 0, {0}};
        b->t[1] = tf32(2, 1, 4, 0, 0);
        b->no = 1;
        b->o[0] = (odesc){TFL_OP_READ_VARIABLE, 1, 1, {0}, {1}};
        io(b, 1, (int32_t[]){0}, 1, (int32_t[]){1});
    }
}
static void c_slice_begin_min(mdesc *m) { base_slice(m, INT32_MIN, 4, 1, 4, false); }
static void c_slice_begin_min_neg(mdesc *m) { base_slice(m, INT32_MIN + 1, INT32_MIN, -1, 0, false); }
static void c_slice_stride_min(mdesc *m) { base_slice(m, 3, 0, INT32_MIN, 1, false); }
static void c_slice_stride_max(mdesc *m) { base_slice(m, 3, 4, INT32_MAX, 1, false); }
static void c_slice_offset_max(mdesc *m) { base_slice(m, INT32_MAX, INT32_MAX, 1, 0, true); }
static void c_slice_end_min_offset(mdesc *m) { base_slice(m, 2, INT32_MIN, 1, 0, true); }
static int32_t g_pads[10];
static void c_pad_huge(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    for (int i = 0; i < 10; i++) g_pads[i] = INT32_MAX;
    g->nt = 3;
    g->t[0] = (tdesc){TFL_TYPE_FLOAT32, 5, {1, 1, 1, 1, 1}};
    g->t[1] = tconst((tdesc){TFL_TYPE_INT32, 2, {5, 2}}, g_pads, sizeof g_pads);
    g->t[2] = (tdesc){TFL_TYPE_FLOAT32, 5, {1, 1, 1, 1, 1}};
    g->no = 1;
    g->o[0] = op2(TFL_OP_PAD, 0, 1, 2);
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){2});
}
static void c_zero_size(mdesc *m) {
    /* ADD of two zero-size graph inputs */
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g->nt = 3;
    for (int i = 0; i < 3; i++) g->t[i] = tf32(2, 0, 4, 0, 0);
    g->no = 1;
    g->o[0] = op2(TFL_OP_ADD, 0, 1, 2);
    io(g, 2, (int32_t[]){0, 1}, 1, (int32_t[]){2});
}
static void c_huge_tensor(mdesc *m) {
    /* ADD over 2^32 elements (a 16 GiB activation): refused before any kernel */
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->t[0] = tf32(2, 65536, 65536, 0, 0);
    g->t[1] = tf32(2, 65536, 65536, 0, 0);
    g->t[2] = tf32(2, 65536, 65536, 0, 0);
    io(g, 2, (int32_t[]){0, 1}, 1, (int32_t[]){2});
}

static void c_custom_newline(mdesc *m) {
    base_add(m);
    m->sg[0].o[0].code = TFL_OP_CUSTOM;
    m->sg[0].o[0].custom = "Evil\nsecond line\r";
}
/* -1 (unknown) dims where kernels expect sizes: refused or run in bounds */
static void c_add_dynamic(mdesc *m) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->t[0] = tf32(2, -1, 4, 0, 0);
    g->t[2] = tf32(2, -1, 4, 0, 0);
    g->o[0].in[1] = 0;
}
static int32_t g_axes[2] = {1, -1}, g_perm[2] = {1, 0};
static void c_mean_dynamic(mdesc *m) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->t[0] = (tdesc){TFL_TYPE_FLOAT32, 3, {2, -1, 4}};
    g->t[1] = tconst((tdesc){TFL_TYPE_INT32, 1, {1}}, g_axes, 4);
    g->t[2] = tf32(2, 2, 4, 0, 0);
    g->o[0] = (odesc){TFL_OP_MEAN, 2, 1, {0, 1}, {2}, NULL, NULL, 0, TFL_OPT_REDUCER, 1, {{F_U8, 0}}};
}
static void c_mean_bad_axis(mdesc *m) {
    c_mean_dynamic(m);
    m->sg[0].t[0].shape[1] = 3;
    m->sg[0].t[1] = tconst((tdesc){TFL_TYPE_INT32, 1, {1}}, &g_axes[1], 4); /* axis -1 */
}
static void c_transpose_dynamic(mdesc *m) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->t[0] = tf32(2, -1, 3, 0, 0);
    g->t[1] = tconst((tdesc){TFL_TYPE_INT32, 1, {2}}, g_perm, 8);
    g->t[2] = tf32(2, 3, -1, 0, 0);
    g->o[0] = op2(TFL_OP_TRANSPOSE, 0, 1, 2);
}
static void c_concat_dynamic(mdesc *m) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->t[0] = tf32(2, -1, 2, 0, 0);
    g->t[1] = tf32(2, 1, 2, 0, 0);
    g->t[2] = tf32(2, 0, 2, 0, 0);
    g->o[0] = (odesc){TFL_OP_CONCATENATION, 2, 1, {0, 1}, {2}, NULL, NULL, 0, TFL_OPT_CONCATENATION, 2, {{F_I32, 0}, {F_U8, 0}}};
    io(g, 2, (int32_t[]){0, 1}, 1, (int32_t[]){2});
}
static void c_softmax_dynamic(mdesc *m) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->t[0] = tf32(2, 4, -1, 0, 0);
    g->t[2] = tf32(2, 4, -1, 0, 0);
    g->o[0] = (odesc){TFL_OP_SOFTMAX, 1, 1, {0}, {2}, NULL, NULL, 0, TFL_OPT_SOFTMAX, 1, {{F_F32, 0, 1.0f}}};
}
static void c_fc_dynamic(mdesc *m) {
    base_weights(m, 2, 2, TFL_TYPE_FLOAT32);
    m->sg[0].t[0] = tf32(2, -1, 8, 0, 0);
    m->sg[0].t[3] = tf32(2, -1, 2, 0, 0);
}
static void c_pool_zero_filter(mdesc *m) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    g->t[0] = tf32(4, 1, 4, 4, 1);
    g->t[2] = tf32(4, 1, 5, 5, 1);
    g->o[0] = (odesc){TFL_OP_MAX_POOL_2D, 1, 1, {0}, {2}, NULL, NULL, 0, TFL_OPT_POOL2D, 6,
                      {{F_U8, TFL_PADDING_VALID}, {F_I32, 1}, {F_I32, 1}, {F_I32, 0}, {F_I32, 0}, {F_U8, 0}}};
}

/* int8 ADD (t0 + const t1 -> t2) with hostile quantisation on t0 */
static const int8_t k_i8[4] = {1, 2, 3, 4};
static void base_add_s8(mdesc *m, float scale0, int64_t zp0) {
    base_add(m);
    sgdesc *g = &m->sg[0];
    for (int i = 0; i < 3; i++) {
        g->t[i].type = TFL_TYPE_INT8;
        g->t[i].scale = 0.5f;
    }
    g->t[1].data = k_i8;
    g->t[1].data_bytes = 4;
    g->t[0].scale = scale0;
    g->t[0].zp = zp0;
}
static void c_zp_int32_min(mdesc *m) { base_add_s8(m, 0.5f, INT32_MIN); } /* found by the fuzzer */
static void c_zp_int8_range(mdesc *m) { base_add_s8(m, 0.5f, 128); }
static void c_scale_nan(mdesc *m) { base_add_s8(m, __builtin_nanf(""), 0); }
static void c_scale_negative(mdesc *m) { base_add_s8(m, -0.5f, 0); }

/* int16 x int8 CONV_2D whose int64 bias would overflow the int64 requantisation */
static const int64_t k_b64[2] = {INT64_C(1) << 60, 0};
static void c_conv_s16_bias_huge(mdesc *m) {
    base_weights(m, 0, 2, TFL_TYPE_INT8);
    sgdesc *g = &m->sg[0];
    g->t[0].type = g->t[3].type = TFL_TYPE_INT16;
    g->t[2] = tconst((tdesc){TFL_TYPE_INT64, 1, {2}}, k_b64, sizeof k_b64);
    g->t[2].scale = 0.125f;
}

/* CONCATENATION whose inputs are narrower than the output off the axis: the
 * kernel would copy rows past them (inside the arena, where ASan sees nothing) */
static void c_concat_narrow(mdesc *m) {
    c_concat_dynamic(m);
    sgdesc *g = &m->sg[0];
    g->t[0] = tf32(2, 1, 2, 0, 0);
    g->t[1] = tf32(2, 1, 2, 0, 0);
    g->t[2] = tf32(2, 2, 4, 0, 0);
}
static void c_conv_batch(mdesc *m) {
    base_weights(m, 0, 2, TFL_TYPE_FLOAT32);
    m->sg[0].t[3].shape[0] = 2;
}

/* SignalWindow (a custom op with a kernel) whose weights are a tensor
 * nothing writes: the validator lets a custom op read one (Vela's NPU
 * scratch), the runtime refuses to run it (found by the fuzzer in poison
 * mode).  The options are SignalWindow's from the audio preprocessor:
 * the FlexBuffer map {"shift": 12}. */
static const uint8_t k_window_opts[] = {0x73, 0x68, 0x69, 0x66, 0x74, 0x00, 0x01, 0x07, 0x01, 0x01,
                                        0x01, 0x0c, 0x04, 0x02, 0x24, 0x01};
static void c_window_orphan(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g->nt = 3;
    g->t[0] = (tdesc){TFL_TYPE_INT16, 1, {32}};
    g->t[1] = (tdesc){TFL_TYPE_INT16, 1, {16}};
    g->t[2] = (tdesc){TFL_TYPE_INT16, 1, {32}};
    g->no = 1;
    g->o[0] = (odesc){TFL_OP_CUSTOM, 2, 1, {0, 1}, {2}, "SignalWindow", k_window_opts, sizeof k_window_opts, 0, 0};
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){2});
}

/* int8 LEAKY_RELU whose scale ratio overflows float to infinity (found by
 * the fuzzer: converting it to a fixed-point multiplier was undefined) */
static void c_leaky_inf(mdesc *m) {
    base_add_s8(m, 1e30f, 0);
    sgdesc *g = &m->sg[0];
    g->t[2].scale = 1e-30f;
    g->o[0] = (odesc){TFL_OP_LEAKY_RELU, 1, 1, {0}, {2}, NULL, NULL, 0, TFL_OPT_LEAKY_RELU, 1, {{F_F32, 0, 0.5f}}};
}

static const hcase k_cases[] = {
    {"valid_add", RUNS, NULL, c_valid_add, k_in4, k_sum4},
    {"unknown_options_type", RUNS, NULL, c_unknown_options, k_in4, k_sum4},
    {"conv_f32_bias_short", AT_PREPARE, "op 0 (CONV_2D): bias tensor 2 has 1 elements for 2 output channels",
     c_conv_f32_bias},
    {"dwconv_f32_bias_short", AT_PREPARE,
     "op 0 (DEPTHWISE_CONV_2D): bias tensor 2 has 1 elements for 2 output channels", c_dw_f32_bias},
    {"fc_f32_bias_short", AT_PREPARE, "op 0 (FULLY_CONNECTED): bias tensor 2 has 1 elements for 2 output channels",
     c_fc_f32_bias},
    {"fc_f32_bias_long", AT_PREPARE, "op 0 (FULLY_CONNECTED): bias tensor 2 has 3 elements", c_fc_f32_bias_long},
    {"conv_s8_bias_short", AT_PREPARE, "op 0 (CONV_2D): bias tensor 2 has 1 elements", c_conv_s8_bias},
    {"conv_groups", AT_PREPARE, "op 0 (CONV_2D): filter count is not a multiple of the groups", c_conv_groups},
    {"conv_dilation0", AT_IMPORT, "op 0 of subgraph 0: dilation_w 0, dilation_h 1 (both must be >= 1)", c_dilation0},
    {"const_output", AT_IMPORT, "op 0 (ADD): output 0 is constant tensor 1 't1'", c_const_output},
    {"variable_output", AT_IMPORT, "op 0 (ADD): output 0 is variable tensor 2 't2'", c_variable_output},
    {"input_output", AT_IMPORT, "op 0 (ADD): output 0 is tensor 0 't0', an input of the subgraph", c_input_output},
    {"self_read", AT_IMPORT, "op 0 (ADD): input 1 is its own output tensor 2 't2'", c_self_read},
    {"cycle", AT_IMPORT, "op 0 (ADD): input 1 is tensor 3 't3', written only later by op 1", c_cycle},
    {"two_writers", AT_IMPORT, "op 1 (ADD): output 0 is tensor 2 't2', already written by op 0", c_two_writers},
    {"read_before_write", AT_IMPORT, "op 0 (ADD): input 1 is tensor 3 't3', which no op writes", c_read_before_write},
    {"no_outputs", AT_IMPORT, "subgraph 0 op 1 (ADD): has no output", c_no_outputs},
    {"call_recursion", AT_IMPORT, "subgraph 2 op 0 (CALL): calls subgraph 1, which is already running (recursion)",
     c_call_recursion},
    {"call_chain", AT_PREPARE, "op 0 (CALL): no kernel for this op", c_call_chain},
    {"if_no_options", AT_IMPORT, "subgraph 0 op 0 (IF): names no then subgraph", c_if_no_options},
    {"if_empty_options", AT_IMPORT, "refers to subgraph 0 of 2", c_if_empty_options},
    {"while_no_options", AT_IMPORT, "subgraph 0 op 0 (WHILE): names no cond subgraph", c_while_no_options},
    {"if_valid", RUNS, NULL, c_if_valid, NULL, k_zero4},
    {"if_shape_mismatch", AT_PREPARE, "op 0 (IF): then subgraph 1's input 0 differs from the op's in type or shape",
     c_if_shape_mismatch},
    {"if_const_subgraph_input", AT_PREPARE, "op 0 (IF): then subgraph 1's input 0 is a constant or variable tensor",
     c_if_const_input},
    {"if_same_branches", RUNS, NULL, c_if_same_branches, NULL, k_zero4},
    {"if_bad_index", AT_IMPORT, "op 0 of subgraph 0: refers to subgraph 5 of 3", c_if_bad_index},
    {"while_valid", RUNS, NULL, c_while_valid, k_in4, k_in4x1024},
    {"while_cond_not_scalar", AT_PREPARE, "op 0 (WHILE): the cond subgraph's first output is not one bool",
     c_while_cond_not_scalar},
    {"while_cycle", AT_IMPORT, "subgraph 2 op 0 (WHILE): calls subgraph 0, which is already running (recursion)",
     c_while_cycle},
    {"call_once_valid", RUNS, NULL, c_call_once_valid, k_in4, k_in4x2},
    {"var_handle_no_options", AT_PREPARE, "op 0 (VAR_HANDLE): no shared_name", c_var_read},
    {"var_valid", RUNS, NULL, c_var_valid, k_in4, k_in4},
    {"var_unassigned", AT_PREPARE, "op 1 (READ_VARIABLE): its variable is never assigned", c_var_unassigned},
    {"var_size_mismatch", AT_PREPARE, "op 2 (READ_VARIABLE): tensor and variable differ in size", c_var_size_mismatch},
    {"var_handle_crosses_subgraphs", AT_PREPARE, "op 0 (READ_VARIABLE) of subgraph 1: its handle is not written by a VAR_HANDLE",
     c_var_handle_crosses},
    {"slice_begin_int32_min", RUNS, NULL, c_slice_begin_min, k_in4, k_in4},
    {"slice_begin_int32_min_negative_stride", AT_PREPARE, "op 0 (STRIDED_SLICE): output tensor 4 has no elements (a 0 dim)", c_slice_begin_min_neg},
    {"slice_stride_int32_min", AT_PREPARE, "op 0 (STRIDED_SLICE): a stride is out of range", c_slice_stride_min},
    {"slice_stride_int32_max", AT_PREPARE, "op 0 (STRIDED_SLICE): a stride is out of range", c_slice_stride_max},
    {"slice_offset_int32_max", AT_PREPARE, "op 0 (STRIDED_SLICE): output tensor 4 has no elements (a 0 dim)", c_slice_offset_max},
    {"slice_end_int32_min_offset", AT_PREPARE, "op 0 (STRIDED_SLICE): output tensor 4 has no elements (a 0 dim)", c_slice_end_min_offset},
    {"pad_int32_max", AT_PREPARE, "op 0 (PAD): padded extent above 2^31-1", c_pad_huge},
    {"zero_size_input", AT_PREPARE, "op 0 (ADD): output tensor 2 has no elements (a 0 dim)", c_zero_size},
    {"huge_tensor", AT_PREPARE, "op 0 (ADD): tensor 0 has more than 2^31-1 elements", c_huge_tensor},
    {"custom_name_newline", AT_PREPARE, "op 0 (Evil?second line?): no kernel for this op", c_custom_newline},
    {"add_dynamic_dim", AT_PREPARE, "op 0 (ADD): tensor 0 has an unknown (-1) dim", c_add_dynamic},
    {"mean_dynamic_dim", AT_PREPARE, "op 0 (MEAN): tensor 0 has an unknown (-1) dim", c_mean_dynamic},
    {"mean_axis_minus1", AT_PREPARE, "op 0 (MEAN): output size does not match the reduction", c_mean_bad_axis},
    {"transpose_dynamic_dim", AT_PREPARE, "op 0 (TRANSPOSE): tensor 0 has an unknown (-1) dim", c_transpose_dynamic},
    {"concat_dynamic_dim", AT_PREPARE, "op 0 (CONCATENATION): tensor 0 has an unknown (-1) dim", c_concat_dynamic},
    {"softmax_dynamic_dim", AT_PREPARE, "op 0 (SOFTMAX): tensor 0 has an unknown (-1) dim", c_softmax_dynamic},
    {"fc_dynamic_batch", AT_PREPARE, "op 0 (FULLY_CONNECTED): tensor 0 has an unknown (-1) dim", c_fc_dynamic},
    {"add_s8_zero_point_int32_min", AT_PREPARE, "op 0 (ADD): tensor 0 has zero point -2147483648, outside its int8 range",
     c_zp_int32_min},
    {"add_s8_zero_point_128", AT_PREPARE, "op 0 (ADD): tensor 0 has zero point 128, outside its int8 range", c_zp_int8_range},
    {"add_s8_scale_nan", AT_PREPARE, "op 0 (ADD): tensor 0 has a negative, infinite or NaN scale", c_scale_nan},
    {"add_s8_scale_negative", AT_PREPARE, "op 0 (ADD): tensor 0 has a negative, infinite or NaN scale", c_scale_negative},
    {"conv_s16_bias_int64_huge", AT_PREPARE, "op 0 (CONV_2D): a bias value overflows the int64 path", c_conv_s16_bias_huge},
    {"concat_narrow_inputs", AT_PREPARE, "op 0 (CONCATENATION): an input's dims differ from the output's off the axis",
     c_concat_narrow},
    {"conv_batch_mismatch", AT_PREPARE, "op 0 (CONV_2D): output batch differs from input", c_conv_batch},
    {"signal_window_unwritten_weights", AT_PREPARE, "tensor 1 't1' is read but no op writes it", c_window_orphan},
    {"leaky_relu_scale_ratio_inf", AT_PREPARE, "op 0 (LEAKY_RELU): alpha or scales out of range", c_leaky_inf},
    {"maxpool_zero_filter", AT_PREPARE, "op 0 (MAX_POOL_2D): filter size and stride must be positive", c_pool_zero_filter},
    {"gather_valid_reverse", RUNS, NULL, c_gather_valid, k_in4, k_rev4},
    {"gather_index_high", AT_INVOKE, "GATHER kernel failed: value out of range", c_gather_index_high},
    {"gather_index_negative", AT_INVOKE, "GATHER kernel failed: value out of range", c_gather_index_negative},
    {"gather_nd_index_high", AT_INVOKE, "GATHER_ND kernel failed: value out of range", c_gather_nd_index_high},
    {"embedding_lookup_index_high", AT_INVOKE, "EMBEDDING_LOOKUP kernel failed: value out of range",
     c_embedding_index_high},
    {"gather_const_index_high", AT_PREPARE, "op 0 (GATHER): a constant index is out of range", c_gather_const_high},
    {"reduce_max_empty_input", RUNS, NULL, c_reduce_max_empty, k_in4, k_lowest4},
    {"gather_nd_index_depth", AT_PREPARE, "op 1 (GATHER_ND): index depth must be 1..rank", c_gather_nd_deep},
    {"mirror_pad_wider_than_input", AT_PREPARE, "op 0 (MIRROR_PAD): a padding is negative or wider", c_mirror_pad_wide},
    {"mirror_pad_negative", AT_PREPARE, "op 0 (MIRROR_PAD): a padding is negative or wider", c_mirror_pad_negative},
};
#define N_CASES (sizeof k_cases / sizeof k_cases[0])

/* ---- the library path ------------------------------------------------------------ */

static bool one_line(const char *s) { return s[0] && !strchr(s, '\n'); }

/* open + import; returns the status, diag in d */
static ta_status import(const unsigned char *p, size_t len, ta_diag *d) {
    ta_tflite_model m;
    ta_status st = ta_tflite_open(&m, p, len, d);
    if (st) return st;
    ta_graph_limits lim;
    if ((st = ta_tflite_graph_limits(&m, &lim))) return st;
    size_t need = ta_graph_bytes(&lim);
    void *blk = malloc(need ? need : 1);
    ta_graph g;
    st = ta_graph_init(&g, &lim, blk, need);
    if (!st) st = ta_tflite_import(&m, &g, d);
    free(blk);
    return st;
}

/* runtime open + query + init + invoke with `in` (4 floats, or zeros);
 * *stage_out: where it stopped (AT_IMPORT for open, AT_PREPARE for
 * query/init, RUNS when it ran); out (4 floats) gets output 0 */
static ta_status run(const unsigned char *p, size_t len, const float *in, float *out, stage_t *where, ta_diag *d) {
    ta_runtime_options opt = ta_runtime_options_default();
    ta_runtime_use_strategy(&opt, "greedy");
    ta_runtime rt;
    *where = AT_IMPORT;
    ta_status st = ta_runtime_open(&rt, p, len, &opt, d);
    if (st) return st;
    size_t wb = ta_runtime_work_bytes(&rt);
    void *work = malloc(wb ? wb : 1);
    ta_arena_breakdown b;
    st = ta_runtime_query(&rt, work, wb, &b, d);
    if (st == TA_E_NO_MEMORY && b.work_bytes > wb && b.work_bytes < ((size_t)64 << 20)) {
        free(work);
        wb = b.work_bytes;
        work = malloc(wb);
        st = ta_runtime_query(&rt, work, wb, &b, d);
    }
    /* the import half of the runtime's query is the importer's: report it as such */
    if (st && strncmp(d->msg, "subgraph ", 9) == 0) {
        free(work);
        return st;
    }
    *where = AT_PREPARE;
    void *arena = NULL;
    if (!st && b.total > ((size_t)64 << 20)) st = ta_diag_set(d, TA_E_NO_MEMORY, "arena of %zu bytes (test cap)", b.total);
    if (!st) {
        arena = malloc(b.total ? b.total : 1);
        st = ta_runtime_init(&rt, work, wb, arena, b.total, d);
    }
    if (!st) {
        *where = RUNS;
        for (uint32_t k = 0; k < ta_runtime_input_count(&rt); k++) {
            const ta_io *x = ta_runtime_input(&rt, k);
            if (x->bytes) memset(x->data, 0, x->bytes);
            if (k == 0 && in && x->bytes == 16) memcpy(x->data, in, 16);
        }
        st = ta_runtime_invoke(&rt, d);
        const ta_io *o = ta_runtime_output(&rt, 0);
        if (!st && out && o && o->bytes == 16) memcpy(out, o->data, 16);
    }
    free(arena);
    free(work);
    return st;
}

static void check_case(const hcase *c) {
    mdesc m;
    c->build(&m);
    size_t len;
    unsigned char *p = write_model(&m, &len);
    ta_diag d1, d2;
    d1.msg[0] = d2.msg[0] = 0;
    ta_status ist = import(p, len, &d1);
    float out[4] = {0};
    stage_t where;
    ta_status rst = run(p, len, c->in, out, &where, &d2);
    int bad = 0;
    switch (c->stage) {
    case AT_IMPORT:
        bad = !(ist == TA_E_MALFORMED && strstr(d1.msg, c->text) && rst == ist && where == AT_IMPORT &&
                strstr(d2.msg, c->text));
        break;
    case AT_PREPARE:
        bad = !(ist == TA_OK && rst != TA_OK && where == AT_PREPARE && strstr(d2.msg, c->text));
        break;
    case RUNS: bad = !(ist == TA_OK && rst == TA_OK && memcmp(out, c->want, sizeof out) == 0); break;
    case EITHER: bad = !(rst == TA_OK || one_line(d2.msg)); break;
    case AT_INVOKE: bad = !(ist == TA_OK && rst != TA_OK && where == RUNS && strstr(d2.msg, c->text)); break;
    }
    if (ist && !one_line(d1.msg)) bad = 1;
    if (rst && !one_line(d2.msg)) bad = 1;
    CHECK(!bad);
    if (bad)
        fprintf(stderr, "%s: expected %s '%s'; import: %s '%s'; runtime: %s at %s '%s'\n", c->name, k_stage[c->stage],
                c->text ? c->text : "", ta_status_str(ist), d1.msg, ta_status_str(rst), k_stage[where], d2.msg);
    else
        printf("ok: %-40s %-8s %s\n", c->name, k_stage[where], rst ? d2.msg : "ran");
    free(p);
}

/* The writer itself: a model it builds opens, imports and has what was
 * described, so a refusal above is about the rule, not the writer. */
static void test_writer(void) {
    mdesc m;
    base_weights(&m, 0, 2, TFL_TYPE_INT8);
    size_t len;
    unsigned char *p = write_model(&m, &len);
    ta_tflite_model tm;
    ta_diag d;
    CHECK(ta_tflite_open(&tm, p, len, &d) == TA_OK);
    ta_graph_limits lim;
    CHECK(ta_tflite_graph_limits(&tm, &lim) == TA_OK && lim.tensors == 4 && lim.ops == 1);
    size_t need = ta_graph_bytes(&lim);
    void *blk = malloc(need);
    ta_graph g;
    CHECK(ta_graph_init(&g, &lim, blk, need) == TA_OK && ta_tflite_import(&tm, &g, &d) == TA_OK);
    const ta_op *op = ta_graph_op(&g, 0, 0);
    CHECK(op && op->kind == TA_OP_CONV_2D && op->opt.padding == TA_PAD_VALID && op->n_inputs == 3);
    const ta_tensor *w = ta_graph_tensor(&g, 0, 1), *b = ta_graph_tensor(&g, 0, 2);
    CHECK(w && w->dtype == TA_DTYPE_INT8 && w->rank == 4 && w->shape[0] == 2 && w->data_bytes == 18 &&
          w->quant.count == 1 && w->quant.scale[0] == 0.25f);
    CHECK(b && b->dtype == TA_DTYPE_INT32 && (b->flags & TA_TENSOR_CONST) && !memcmp(b->data, k_b32, 8));
    free(blk);
    free(p);
}

/* Writes every case for the CLI script: DIR/<name>.tflite and DIR/cases.tsv. */
static int write_cases(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/cases.tsv", dir);
    FILE *tsv = fopen(path, "w");
    if (!tsv) return fprintf(stderr, "%s: cannot write\n", path), 1;
    for (size_t i = 0; i < N_CASES; i++) {
        mdesc m;
        k_cases[i].build(&m);
        size_t len;
        unsigned char *p = write_model(&m, &len);
        snprintf(path, sizeof path, "%s/%s.tflite", dir, k_cases[i].name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(p, 1, len, f) != len) return fprintf(stderr, "%s: cannot write\n", path), 1;
        fclose(f);
        free(p);
        fprintf(tsv, "%s\t%s\t%s\n", k_cases[i].name, k_stage[k_cases[i].stage], k_cases[i].text ? k_cases[i].text : "");
    }
    fclose(tsv);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "--write")) return write_cases(argv[2]);
    test_writer();
    for (size_t i = 0; i < N_CASES; i++) check_case(&k_cases[i]);
    return ta_test_finish("test_hostile");
}
