/* Control flow and resource variables (issue 18): hand-built models (the
 * FlatBuffer writer of tests/tflite_writer.h) run through the whole
 * library path under every strategy, with shared scratch, with every
 * rewrite, in poison mode (canaries around every op, nested ones too) and
 * from the exported op constants, from those and the exported init table
 * (with the work-block path's options, and with a firmware's,
 * ta_runtime_options_for_budget: no import, no prepare), over several
 * invokes, and every output is checked against values computed by hand:
 *  - counter: CALL_ONCE runs an init subgraph that assigns 10,20,30,40 to
 *    variable "acc"; each invoke reads it, adds the input, and assigns the
 *    sum back through a second handle to the same variable (no container):
 *    the state persists over invokes, ta_runtime_reset starts it again;
 *  - containers: handles ("a", "v") and ("b", "v") are two variables, one
 *    without a container matches the first created (TFLM's FindId);
 *  - zp: an int8 variable read before any assign holds its zero point's
 *    byte (TFLM's initial value), then what the previous invoke assigned;
 *  - if: then doubles, else squares, by the bool input;
 *  - while: a counter loop (i < 3: i + 1, acc + acc) -- 3, then 0 iterations;
 *  - nested: IF whose then-branch runs the WHILE, else passes through;
 *  - a WHILE that never ends stops at the iteration cap with one line. */
#include <stdint.h>
#include <stdlib.h>

#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <string.h>

#include "testutil.h"
#include "tflite_writer.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/plan.h"
#include "tinyarena/tflite.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/runtime.h"

static const float k_init[4] = {10, 20, 30, 40};
static const int32_t k_three[1] = {3}, k_one_i[1] = {1}, k_zero_i[1] = {0};

static tdesc tres(void) { return (tdesc){TFL_TYPE_RESOURCE, 0, {0}}; }
static tdesc ti32(int n) { return (tdesc){TFL_TYPE_INT32, 1, {n}}; }
static tdesc tb1(void) { return (tdesc){TFL_TYPE_BOOL, 1, {1}}; }
static odesc var_handle(const char *container, const char *name, int32_t out) {
    odesc o = {TFL_OP_VAR_HANDLE, 0, 1, {0}, {out}, NULL, NULL, 0, TFL_OPT_VAR_HANDLE, 2, {{F_ABSENT}, {F_STR}}};
    if (container) o.opt[0] = (fld){F_STR, 0, 0, container};
    o.opt[1].s = name;
    return o;
}
static odesc op1(int32_t code, int32_t in, int32_t out) { return (odesc){code, 1, 1, {in}, {out}}; }
static odesc assign(int32_t h, int32_t v) { return (odesc){TFL_OP_ASSIGN_VARIABLE, 2, 0, {h, v}, {0}}; }

/* sg0: CALL_ONCE(1); h = VAR_HANDLE("acc"); v = READ(h); y = v + x;
 * h2 = VAR_HANDLE(no container, "acc"); ASSIGN(h2, y).  sg1: h =
 * VAR_HANDLE("acc"); ASSIGN(h, const 10,20,30,40). */
static void m_counter(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 2;
    sgdesc *g = &m->sg[0];
    g->nt = 5;
    g->t[0] = tf32(2, 1, 4, 0, 0); /* x */
    g->t[1] = tres();
    g->t[2] = tf32(2, 1, 4, 0, 0); /* v */
    g->t[3] = tf32(2, 1, 4, 0, 0); /* y */
    g->t[4] = tres();
    g->no = 6;
    g->o[0] = (odesc){TFL_OP_CALL_ONCE, 0, 0, {0}, {0}, NULL, NULL, 0, TFL_OPT_CALL_ONCE, 1, {{F_I32, 1}}};
    g->o[1] = var_handle("c", "acc", 1);
    g->o[2] = op1(TFL_OP_READ_VARIABLE, 1, 2);
    g->o[3] = op2(TFL_OP_ADD, 2, 0, 3);
    g->o[4] = var_handle(NULL, "acc", 4);
    g->o[5] = assign(4, 3);
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){3});
    sgdesc *i = &m->sg[1];
    i->nt = 2;
    i->t[0] = tres();
    i->t[1] = tconst(tf32(2, 1, 4, 0, 0), k_init, sizeof k_init);
    i->no = 2;
    i->o[0] = var_handle("c", "acc", 0);
    i->o[1] = assign(0, 1);
}

/* sg0: h = VAR_HANDLE("s"); v = READ(h) (output); ASSIGN(h, x); int8, zp -5 */
static void m_zp(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g->nt = 3;
    g->t[0] = (tdesc){TFL_TYPE_INT8, 1, {4}, NULL, 0, 0, 0.5f, -5};
    g->t[1] = tres();
    g->t[2] = (tdesc){TFL_TYPE_INT8, 1, {4}, NULL, 0, 0, 0.5f, -5};
    g->no = 3;
    g->o[0] = var_handle(NULL, "s", 1);
    g->o[1] = op1(TFL_OP_READ_VARIABLE, 1, 2);
    g->o[2] = assign(1, 0);
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){2});
}

/* Containers: h1 = ("a", "v"), h2 = ("b", "v") are two variables; h3 (no
 * container, "v") matches the first one created, h1's.  ASSIGN(h2, 5..8),
 * ASSIGN(h1, x); outputs READ(h2) = 5..8 and READ(h3) = x. */
static const float k_5678[4] = {5, 6, 7, 8};
static void m_containers(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 1;
    sgdesc *g = &m->sg[0];
    g->nt = 7;
    g->t[0] = tf32(2, 1, 4, 0, 0);
    g->t[1] = tres();
    g->t[2] = tres();
    g->t[3] = tres();
    g->t[4] = tconst(tf32(2, 1, 4, 0, 0), k_5678, sizeof k_5678);
    g->t[5] = tf32(2, 1, 4, 0, 0);
    g->t[6] = tf32(2, 1, 4, 0, 0);
    g->no = 7;
    g->o[0] = var_handle("a", "v", 1);
    g->o[1] = var_handle("b", "v", 2);
    g->o[2] = var_handle(NULL, "v", 3);
    g->o[3] = assign(2, 4);
    g->o[4] = assign(1, 0);
    g->o[5] = op1(TFL_OP_READ_VARIABLE, 2, 5);
    g->o[6] = op1(TFL_OP_READ_VARIABLE, 3, 6);
    io(g, 1, (int32_t[]){0}, 2, (int32_t[]){5, 6});
}

/* A subgraph y = x (op) x over [1,4] float. */
static void bin_sg(sgdesc *g, int32_t code) {
    g->nt = 2;
    g->t[0] = tf32(2, 1, 4, 0, 0);
    g->t[1] = tf32(2, 1, 4, 0, 0);
    g->no = 1;
    g->o[0] = op2(code, 0, 0, 1);
    io(g, 1, (int32_t[]){0}, 1, (int32_t[]){1});
}

/* sg0: y = IF(c, x): then 1 (x + x), else 2 (x * x) */
static void m_if(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 3;
    sgdesc *g = &m->sg[0];
    g->nt = 3;
    g->t[0] = tb1();
    g->t[1] = tf32(2, 1, 4, 0, 0);
    g->t[2] = tf32(2, 1, 4, 0, 0);
    g->no = 1;
    g->o[0] = (odesc){TFL_OP_IF, 2, 1, {0, 1}, {2}, NULL, NULL, 0, TFL_OPT_IF, 2, {{F_I32, 1}, {F_I32, 2}}};
    io(g, 2, (int32_t[]){0, 1}, 1, (int32_t[]){2});
    bin_sg(&m->sg[1], TFL_OP_ADD);
    bin_sg(&m->sg[2], TFL_OP_MUL);
}

/* WHILE's cond (i < limit) at sg c, body (i + step, acc + acc) at sg b. */
static void while_sgs(mdesc *m, int c, int b, const int32_t *step) {
    sgdesc *cg = &m->sg[c];
    cg->nt = 4;
    cg->t[0] = ti32(1);
    cg->t[1] = tf32(2, 1, 4, 0, 0);
    cg->t[2] = tconst(ti32(1), k_three, sizeof k_three);
    cg->t[3] = tb1();
    cg->no = 1;
    cg->o[0] = op2(TFL_OP_LESS, 0, 2, 3);
    io(cg, 2, (int32_t[]){0, 1}, 1, (int32_t[]){3});
    sgdesc *bg = &m->sg[b];
    bg->nt = 5;
    bg->t[0] = ti32(1);
    bg->t[1] = tf32(2, 1, 4, 0, 0);
    bg->t[2] = tconst(ti32(1), step, 4);
    bg->t[3] = ti32(1);
    bg->t[4] = tf32(2, 1, 4, 0, 0);
    bg->no = 2;
    bg->o[0] = op2(TFL_OP_ADD, 0, 2, 3);
    bg->o[1] = op2(TFL_OP_ADD, 1, 1, 4);
    io(bg, 2, (int32_t[]){0, 1}, 2, (int32_t[]){3, 4});
}

/* sg0: (n, y) = WHILE(i, x), cond 1, body 2 */
static void m_while_step(mdesc *m, const int32_t *step) {
    memset(m, 0, sizeof *m);
    m->nsg = 3;
    sgdesc *g = &m->sg[0];
    g->nt = 4;
    g->t[0] = ti32(1);
    g->t[1] = tf32(2, 1, 4, 0, 0);
    g->t[2] = ti32(1);
    g->t[3] = tf32(2, 1, 4, 0, 0);
    g->no = 1;
    g->o[0] = (odesc){TFL_OP_WHILE, 2, 2, {0, 1}, {2, 3}, NULL, NULL, 0, TFL_OPT_WHILE, 2, {{F_I32, 1}, {F_I32, 2}}};
    io(g, 2, (int32_t[]){0, 1}, 2, (int32_t[]){2, 3});
    while_sgs(m, 1, 2, step);
}
static void m_while(mdesc *m) { m_while_step(m, k_one_i); }
static void m_while_forever(mdesc *m) { m_while_step(m, k_zero_i); }

/* sg0: (n, y) = IF(c, i, x): then sg1 = WHILE(i, x) (cond 2, body 3), else
 * sg4 passes i and x through; then y + y after the IF. */
static void m_nested(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 5;
    sgdesc *g = &m->sg[0];
    g->nt = 6;
    g->t[0] = tb1();
    g->t[1] = ti32(1);
    g->t[2] = tf32(2, 1, 4, 0, 0);
    g->t[3] = ti32(1);
    g->t[4] = tf32(2, 1, 4, 0, 0);
    g->t[5] = tf32(2, 1, 4, 0, 0);
    g->no = 2;
    g->o[0] = (odesc){TFL_OP_IF, 3, 2, {0, 1, 2}, {3, 4}, NULL, NULL, 0, TFL_OPT_IF, 2, {{F_I32, 1}, {F_I32, 4}}};
    g->o[1] = op2(TFL_OP_ADD, 4, 4, 5);
    io(g, 3, (int32_t[]){0, 1, 2}, 2, (int32_t[]){3, 5});
    sgdesc *t = &m->sg[1];
    t->nt = 4;
    t->t[0] = ti32(1);
    t->t[1] = tf32(2, 1, 4, 0, 0);
    t->t[2] = ti32(1);
    t->t[3] = tf32(2, 1, 4, 0, 0);
    t->no = 1;
    t->o[0] = (odesc){TFL_OP_WHILE, 2, 2, {0, 1}, {2, 3}, NULL, NULL, 0, TFL_OPT_WHILE, 2, {{F_I32, 2}, {F_I32, 3}}};
    io(t, 2, (int32_t[]){0, 1}, 2, (int32_t[]){2, 3});
    while_sgs(m, 2, 3, k_one_i);
    sgdesc *e = &m->sg[4];
    e->nt = 2;
    e->t[0] = ti32(1);
    e->t[1] = tf32(2, 1, 4, 0, 0);
    io(e, 2, (int32_t[]){0, 1}, 2, (int32_t[]){0, 1});
}

/* sg0: y = IF(c, x), z = IF(c, y), both IFs with then sg1 (x + x) and
 * else sg2 (x * x): each branch runs from two call sites (c: 4x, else
 * x^4). */
static void m_shared(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 3;
    sgdesc *g = &m->sg[0];
    g->nt = 4;
    g->t[0] = tb1();
    g->t[1] = tf32(2, 1, 4, 0, 0);
    g->t[2] = tf32(2, 1, 4, 0, 0);
    g->t[3] = tf32(2, 1, 4, 0, 0);
    g->no = 2;
    g->o[0] = (odesc){TFL_OP_IF, 2, 1, {0, 1}, {2}, NULL, NULL, 0, TFL_OPT_IF, 2, {{F_I32, 1}, {F_I32, 2}}};
    g->o[1] = (odesc){TFL_OP_IF, 2, 1, {0, 2}, {3}, NULL, NULL, 0, TFL_OPT_IF, 2, {{F_I32, 1}, {F_I32, 2}}};
    io(g, 2, (int32_t[]){0, 1}, 1, (int32_t[]){3});
    bin_sg(&m->sg[1], TFL_OP_ADD);
    bin_sg(&m->sg[2], TFL_OP_MUL);
}

/* sg0: (n, y) = WHILE(i, x) (cond 1, body 2), then (j, z) = IF(c, n, y):
 * then is the WHILE's body again (one more step), else sg3 passes them
 * through -- a loop body that an IF also runs. */
static void m_body_shared(mdesc *m) {
    memset(m, 0, sizeof *m);
    m->nsg = 4;
    sgdesc *g = &m->sg[0];
    g->nt = 7;
    g->t[0] = tb1();
    g->t[1] = ti32(1);
    g->t[2] = tf32(2, 1, 4, 0, 0);
    g->t[3] = ti32(1);
    g->t[4] = tf32(2, 1, 4, 0, 0);
    g->t[5] = ti32(1);
    g->t[6] = tf32(2, 1, 4, 0, 0);
    g->no = 2;
    g->o[0] = (odesc){TFL_OP_WHILE, 2, 2, {1, 2}, {3, 4}, NULL, NULL, 0, TFL_OPT_WHILE, 2, {{F_I32, 1}, {F_I32, 2}}};
    g->o[1] = (odesc){TFL_OP_IF, 3, 2, {0, 3, 4}, {5, 6}, NULL, NULL, 0, TFL_OPT_IF, 2, {{F_I32, 2}, {F_I32, 3}}};
    io(g, 3, (int32_t[]){0, 1, 2}, 2, (int32_t[]){5, 6});
    while_sgs(m, 1, 2, k_one_i);
    sgdesc *e = &m->sg[3];
    e->nt = 2;
    e->t[0] = ti32(1);
    e->t[1] = tf32(2, 1, 4, 0, 0);
    io(e, 2, (int32_t[]){0, 1}, 2, (int32_t[]){0, 1});
}

/* ---- running ------------------------------------------------------------------ */

typedef struct {
    ta_runtime rt;
    void *work, *arena;
} run_t;

static ta_status setup(run_t *r, const unsigned char *p, size_t len, const ta_runtime_options *opt, ta_diag *d) {
    memset(r, 0, sizeof *r);
    ta_status st = ta_runtime_open(&r->rt, p, len, opt, d);
    if (st) return st;
    size_t wb = ta_runtime_work_bytes(&r->rt);
    ta_arena_breakdown b;
    for (int i = 0; i < 4; i++) {
        free(r->work);
        r->work = malloc(wb ? wb : 1);
        st = ta_runtime_query(&r->rt, r->work, wb, &b, d);
        if (st != TA_E_NO_MEMORY) break;
        wb = b.work_bytes;
    }
    if (st) return st;
    r->arena = malloc(b.total);
    return ta_runtime_init(&r->rt, r->work, wb, r->arena, b.total, d);
}

static void teardown(run_t *r) {
    free(r->work);
    free(r->arena);
}

static void set_in(run_t *r, uint32_t k, const void *v, size_t n) {
    const ta_io *x = ta_runtime_input(&r->rt, k);
    CHECK(x && x->bytes == n);
    if (x && x->bytes == n) memcpy(x->data, v, n);
}

static int out_is(run_t *r, uint32_t k, const void *want, size_t n, const char *what, const char *mode) {
    const ta_io *y = ta_runtime_output(&r->rt, k);
    const int ok = y && y->bytes == n && memcmp(y->data, want, n) == 0;
    if (!ok) fprintf(stderr, "%s [%s]: output %u differs\n", what, mode, k);
    CHECK(ok);
    return ok;
}

/* Every mode a model runs in: each strategy, shared scratch, every
 * rewrite, poison mode with and without rewrites, and the budget table of
 * the first (greedy) run with its exported op constants. */
typedef void (*check_fn)(run_t *r, const char *mode);

static void all_modes(const char *what, void (*build)(mdesc *), check_fn check) {
    mdesc m;
    build(&m);
    size_t len;
    unsigned char *p = write_model(&m, &len);
    size_t n_strat = 0;
    const ta_strategy *const *strats = ta_strategy_list(&n_strat);
    void *blob = NULL, *itab = NULL;
    size_t blob_bytes = 0, itab_bytes = 0;
    ta_budget bud;
    memset(&bud, 0, sizeof bud);
    int ran = 0;
    for (size_t i = 0; i < n_strat + 8; i++) {
        ta_runtime_options opt = ta_runtime_options_default();
        char mode[64];
        if (i < n_strat) {
            snprintf(mode, sizeof mode, "%s", strats[i]->name);
            ta_runtime_use_strategy(&opt, strats[i]->name);
        } else {
            static const char *const names[] = {"shared",           "rewrites", "poison", "poison+rewrites",
                                                "optimal+rewrites", "consts",   "init",   "firmware"};
            const size_t k = i - n_strat;
            snprintf(mode, sizeof mode, "%s", names[k]);
            ta_runtime_use_strategy(&opt, k == 4 ? "optimal" : "greedy");
            if (k == 0) opt.scratch = TA_SCRATCH_SHARED;
            if (k == 1 || k == 3 || k == 4) opt.rewrites = TA_REWRITE_ALL;
            if (k == 2 || k == 3) opt.poison = true;
            if (k >= 5) { /* greedy's exported op constants, every subgraph's records */
                if (!blob || !itab) continue;
                ta_runtime_use_consts(&opt, blob, blob_bytes);
            }
            if (k == 6) ta_runtime_use_init(&opt, itab, itab_bytes); /* and its init table */
            if (k == 7) { /* as a firmware: the budget's tables only */
                bud = (ta_budget){what, ta_budget_hash(p, len), "greedy", ((const uint32_t *)itab)[7], 16, 0, NULL,
                                  blob, (uint32_t)blob_bytes, 0, itab, (uint32_t)itab_bytes,
                                  ta_align_rule_code(opt.align_rule)};
                opt = ta_runtime_options_for_budget(&bud, &ta_op_list_all);
            }
        }
        run_t r;
        ta_diag d;
        d.msg[0] = 0;
        ta_status st = setup(&r, p, len, &opt, &d);
        if (st) fprintf(stderr, "%s [%s]: %s\n", what, mode, d.msg);
        CHECK(st == TA_OK);
        if (!st) {
            check(&r, mode);
            ran++;
            if (opt.poison) CHECK(!ta_runtime_poison_report(&r.rt)->clobbered);
        }
        if (!st && !blob && !strcmp(mode, "greedy")) {
            CHECK(ta_runtime_export_consts(&r.rt, NULL, 0, &blob_bytes, &d) == TA_OK);
            blob = aligned_alloc(16, (blob_bytes + 15) & ~(size_t)15);
            CHECK(ta_runtime_export_consts(&r.rt, blob, blob_bytes, &blob_bytes, &d) == TA_OK);
            /* the init table: with its flow section (subgraphs, variables) */
            CHECK(ta_runtime_export_init(&r.rt, NULL, 0, NULL, 0, &itab_bytes, &d) == TA_OK);
            itab = aligned_alloc(16, (itab_bytes + 15) & ~(size_t)15);
            CHECK(ta_runtime_export_init(&r.rt, r.work, ta_runtime_breakdown(&r.rt)->work_bytes, itab, itab_bytes,
                                         &itab_bytes, &d) == TA_OK);
        }
        teardown(&r);
    }
    printf("ok: %-10s ran in %d modes\n", what, ran);
    CHECK(ran == (int)n_strat + 8);
    free(blob);
    free(itab);
    free(p);
}

static const float k_x[4] = {1, 2, 3, 4};

static void check_counter(run_t *r, const char *mode) {
    const float want[3][4] = {{11, 22, 33, 44}, {12, 24, 36, 48}, {13, 26, 39, 52}};
    ta_diag d;
    for (int k = 0; k < 3; k++) {
        set_in(r, 0, k_x, sizeof k_x);
        CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
        out_is(r, 0, want[k], 16, "counter", mode);
    }
    /* reset: the variable and CALL_ONCE start again */
    CHECK(ta_runtime_reset(&r->rt, &d) == TA_OK);
    set_in(r, 0, k_x, sizeof k_x);
    CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
    out_is(r, 0, want[0], 16, "counter after reset", mode);
}

static void check_zp(run_t *r, const char *mode) {
    const int8_t a[4] = {1, -2, 3, 127}, b[4] = {0, 0, -128, 9}, fill[4] = {-5, -5, -5, -5};
    ta_diag d;
    set_in(r, 0, a, 4);
    CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
    out_is(r, 0, fill, 4, "zp first read", mode);
    set_in(r, 0, b, 4);
    CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
    out_is(r, 0, a, 4, "zp second read", mode);
}

static void check_containers(run_t *r, const char *mode) {
    ta_diag d;
    set_in(r, 0, k_x, 16);
    CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
    out_is(r, 0, k_5678, 16, "container b", mode);
    out_is(r, 1, k_x, 16, "no container: the first variable", mode);
}

static void check_if(run_t *r, const char *mode) {
    const float twice[4] = {2, 4, 6, 8}, sq[4] = {1, 4, 9, 16};
    ta_diag d;
    for (int k = 0; k < 3; k++) {
        const uint8_t c = k != 1;
        set_in(r, 0, &c, 1);
        set_in(r, 1, k_x, 16);
        CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
        out_is(r, 0, c ? twice : sq, 16, c ? "if then" : "if else", mode);
    }
}

static void check_while(run_t *r, const char *mode) {
    const float x8[4] = {8, 16, 24, 32};
    const int32_t i0 = 0, i5 = 5, three = 3;
    ta_diag d;
    set_in(r, 0, &i0, 4);
    set_in(r, 1, k_x, 16);
    CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
    out_is(r, 0, &three, 4, "while count", mode);
    out_is(r, 1, x8, 16, "while acc", mode);
    set_in(r, 0, &i5, 4); /* the cond is false at once: outputs = inputs */
    set_in(r, 1, k_x, 16);
    CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
    out_is(r, 0, &i5, 4, "while none", mode);
    out_is(r, 1, k_x, 16, "while none acc", mode);
}

static void check_nested(run_t *r, const char *mode) {
    const float x2[4] = {2, 4, 6, 8};
    const int32_t i1 = 1, three = 3;
    const uint8_t yes = 1, no = 0;
    ta_diag d;
    set_in(r, 0, &yes, 1);
    set_in(r, 1, &i1, 4);
    set_in(r, 2, k_x, 16);
    CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
    out_is(r, 0, &three, 4, "nested then count", mode); /* 2 iterations: x * 4, then the ADD after the IF */
    out_is(r, 1, (const float[]){8, 16, 24, 32}, 16, "nested then", mode);
    set_in(r, 0, &no, 1);
    set_in(r, 1, &i1, 4);
    set_in(r, 2, k_x, 16);
    CHECK(ta_runtime_invoke(&r->rt, &d) == TA_OK);
    out_is(r, 0, &i1, 4, "nested else count", mode);
    out_is(r, 1, x2, 16, "nested else", mode);
}

static void check_shared(run_t *r, const char *mode) {
    const float x4[4] = {4, 8, 12, 16}, p4[4] = {1, 16, 81, 256};
    ta_diag d;
    for (int k = 0; k < 3; k++) {
        const uint8_t c = k != 1;
        set_in(r, 0, &c, 1);
        set_in(r, 1, k_x, 16);
        const ta_status st = ta_runtime_invoke(&r->rt, &d);
        if (st) fprintf(stderr, "shared [%s]: %s\n", mode, d.msg);
        CHECK(st == TA_OK);
        out_is(r, 0, c ? x4 : p4, 16, c ? "shared then twice" : "shared else twice", mode);
    }
}

static void check_body_shared(run_t *r, const char *mode) {
    const float x8[4] = {8, 16, 24, 32}, x16[4] = {16, 32, 48, 64};
    const int32_t i0 = 0, three = 3, four = 4;
    ta_diag d;
    for (int k = 0; k < 3; k++) {
        const uint8_t c = k != 1;
        set_in(r, 0, &c, 1);
        set_in(r, 1, &i0, 4);
        set_in(r, 2, k_x, 16);
        const ta_status st = ta_runtime_invoke(&r->rt, &d);
        if (st) fprintf(stderr, "body shared [%s]: %s\n", mode, d.msg);
        CHECK(st == TA_OK);
        out_is(r, 0, c ? &four : &three, 4, "body shared count", mode);
        out_is(r, 1, c ? x16 : x8, 16, c ? "body shared, then: the body once more" : "body shared, else", mode);
    }
}

/* The shared model's lifetimes (TFLM's rules), steps: IF1 1, its then
 * entered at 2 (ADD 3), else at 4 (MUL 5); IF2 6, then 7 (ADD 8), else 9
 * (MUL 10).  A branch's tensors are live from its first call's entry to
 * its second call's op; the first IF's output y from IF1 to IF2's end --
 * so no plan puts a branch's tensors over x, y or z while either IF runs
 * it.  (Overwriting the start at each call, as before, gave the branches
 * the second call's steps only: their bytes free during the first.) */
static void check_shared_lifetimes(void) {
    mdesc m;
    m_shared(&m);
    size_t len;
    unsigned char *p = write_model(&m, &len);
    ta_tflite_model tm;
    ta_diag d;
    ta_graph_limits lim;
    ta_graph g;
    CHECK(ta_tflite_open(&tm, p, len, &d) == TA_OK && ta_tflite_graph_limits(&tm, &lim) == TA_OK);
    void *gm = malloc(ta_graph_bytes(&lim));
    CHECK(ta_graph_init(&g, &lim, gm, ta_graph_bytes(&lim)) == TA_OK && ta_tflite_import(&tm, &g, &d) == TA_OK);
    const size_t lb = ta_lifetime_bytes(&g, 0);
    void *lm = malloc(lb);
    ta_lifetimes lt;
    CHECK(ta_lifetime_analyze(&g, NULL, 0, lm, lb, &lt, &d) == TA_OK);
    /* global tensors: sg0 c, x, y, z; sg1 (then) in, out; sg2 (else) in, out */
    const int32_t want[8][2] = {{0, 10}, {0, 5}, {1, 10}, {6, 10}, {2, 8}, {3, 8}, {4, 10}, {5, 10}};
    CHECK(g.n_tensors == 8);
    for (uint32_t t = 0; t < 8 && t < g.n_tensors; t++) {
        if (lt.first[t] != want[t][0] || lt.last[t] != want[t][1])
            fprintf(stderr, "shared: tensor %u live %d..%d, want %d..%d\n", t, lt.first[t], lt.last[t], want[t][0],
                    want[t][1]);
        CHECK(lt.first[t] == want[t][0] && lt.last[t] == want[t][1]);
    }
    free(lm);
    free(gm);
    free(p);
}

static void check_forever_cap(void) {
    mdesc m;
    m_while_forever(&m);
    size_t len;
    unsigned char *p = write_model(&m, &len);
    for (int poison = 0; poison < 2; poison++) {
        ta_runtime_options opt = ta_runtime_options_default();
        ta_runtime_use_strategy(&opt, "greedy");
        opt.max_iterations = 1000;
        opt.poison = poison;
        run_t r;
        ta_diag d;
        CHECK(setup(&r, p, len, &opt, &d) == TA_OK);
        const int32_t i0 = 0;
        set_in(&r, 0, &i0, 4);
        set_in(&r, 1, k_x, 16);
        ta_status st = ta_runtime_invoke(&r.rt, &d);
        CHECK(st == TA_E_TIMEOUT && strstr(d.msg, "op 0: WHILE: still running after 1000 iterations") &&
              !strchr(d.msg, '\n'));
        printf("ok: capped: %s\n", d.msg);
        teardown(&r);
    }
    free(p);
}

/* The cap counts every body run of an invoke: the nested WHILE (two
 * iterations from i = 1) fails at cap 1, naming the op in its subgraph,
 * runs at cap 2, and again on the next invoke (the count is per invoke). */
static void check_nested_cap(void) {
    mdesc m;
    m_nested(&m);
    size_t len;
    unsigned char *p = write_model(&m, &len);
    for (uint32_t cap = 1; cap <= 2; cap++) {
        ta_runtime_options opt = ta_runtime_options_default();
        ta_runtime_use_strategy(&opt, "greedy");
        opt.max_iterations = cap;
        run_t r;
        ta_diag d;
        CHECK(setup(&r, p, len, &opt, &d) == TA_OK);
        const int32_t i1 = 1;
        const uint8_t yes = 1;
        for (int k = 0; k < 2; k++) {
            set_in(&r, 0, &yes, 1);
            set_in(&r, 1, &i1, 4);
            set_in(&r, 2, k_x, 16);
            ta_status st = ta_runtime_invoke(&r.rt, &d);
            if (cap == 1)
                CHECK(st == TA_E_TIMEOUT &&
                      strstr(d.msg, "op 0: subgraph 1 op 0: WHILE: still running after 1 iterations"));
            else
                CHECK(st == TA_OK);
        }
        teardown(&r);
    }
    free(p);
}

int main(void) {
    all_modes("counter", m_counter, check_counter);
    all_modes("zp", m_zp, check_zp);
    all_modes("containers", m_containers, check_containers);
    all_modes("if", m_if, check_if);
    all_modes("while", m_while, check_while);
    all_modes("nested", m_nested, check_nested);
    all_modes("shared", m_shared, check_shared);
    all_modes("body+if", m_body_shared, check_body_shared);
    check_shared_lifetimes();
    check_forever_cap();
    check_nested_cap();
    return ta_test_finish("test_control_flow");
}
