/* A small FlatBuffer writer of TFLite models for tests (test_hostile,
 * test_control_flow): hand-built models, each described as subgraphs of
 * tensors and ops (tdesc, odesc, sgdesc, mdesc), written with
 * write_model() into malloc'd bytes (the caller frees).  Host-side only. */
#ifndef TA_TESTS_TFLITE_WRITER_H
#define TA_TESTS_TFLITE_WRITER_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite/schema_ids.h"

/* ---- a FlatBuffer writer ---------------------------------------------------
 *
 * Front to back: a parent is written before its children, and every offset
 * field is a 4-byte placeholder patched with link() once the child exists
 * at a higher address (uoffsets point forward).  A table is preceded by
 * its vtable; every present scalar gets a 4-byte slot (a u8 in its first
 * byte), which keeps every field aligned. */

typedef struct {
    uint8_t *p;
    size_t n, cap;
} fbw;

static inline size_t w_take(fbw *w, size_t bytes, size_t align, size_t phase) {
    /* returns a position with (pos + phase) % align == 0, zero-filled */
    while ((w->n + phase) % align) w->n++;
    size_t need = w->n + bytes;
    if (need > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (cap < need) cap *= 2;
        w->p = realloc(w->p, cap);
        memset(w->p + w->cap, 0, cap - w->cap);
        w->cap = cap;
    }
    size_t at = w->n;
    w->n = need;
    return at;
}

static inline void w_u32(fbw *w, size_t at, uint32_t v) { memcpy(w->p + at, &v, 4); }

static inline void w_link(fbw *w, size_t at, size_t target) {
    if (target <= at) abort(); /* the writer's own invariant */
    w_u32(w, at, (uint32_t)(target - at));
}

enum { F_ABSENT = 0, F_U8, F_I32, F_F32, F_OFF, F_STR };
typedef struct {
    int kind;
    int64_t v; /* F_U8 / F_I32 value; F_F32 uses f */
    float f;
    const char *s; /* F_STR (option tables only: VarHandleOptions) */
} fld;

/* A table of n slots; pos[i] (optional) gets each present field's position. */
static inline size_t w_table(fbw *w, int n, const fld *f, size_t *pos) {
    int present = 0;
    for (int i = 0; i < n; i++) present += f[i].kind != F_ABSENT;
    size_t vt = w_take(w, 4 + 2 * (size_t)n, 4, 0);
    size_t t = w_take(w, 4 + 4 * (size_t)present, 4, 0);
    uint16_t h[2] = {(uint16_t)(4 + 2 * n), (uint16_t)(4 + 4 * present)};
    memcpy(w->p + vt, h, 4);
    int32_t so = (int32_t)(t - vt);
    memcpy(w->p + t, &so, 4);
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint16_t o = 0;
        if (f[i].kind != F_ABSENT) {
            o = (uint16_t)(4 + 4 * k++);
            size_t at = t + o;
            if (pos) pos[i] = at;
            if (f[i].kind == F_U8)
                w->p[at] = (uint8_t)f[i].v;
            else if (f[i].kind == F_I32)
                w_u32(w, at, (uint32_t)(int32_t)f[i].v);
            else if (f[i].kind == F_F32)
                memcpy(w->p + at, &f[i].f, 4);
        }
        memcpy(w->p + vt + 4 + 2 * i, &o, 2);
    }
    return t;
}

static inline size_t w_vec_i32(fbw *w, uint32_t n, const int32_t *v) {
    size_t at = w_take(w, 4 + 4 * (size_t)n, 4, 0);
    w_u32(w, at, n);
    if (n) memcpy(w->p + at + 4, v, 4 * (size_t)n);
    return at;
}

/* A byte vector whose data starts 16-aligned (Buffer.data's force_align). */
static inline size_t w_vec_bytes(fbw *w, size_t n, const void *v) {
    size_t at = w_take(w, 4 + n, 16, 4);
    w_u32(w, at, (uint32_t)n);
    if (n) memcpy(w->p + at + 4, v, n);
    return at;
}

static inline size_t w_vec_i64(fbw *w, uint32_t n, const int64_t *v) {
    size_t at = w_take(w, 4 + 8 * (size_t)n, 8, 4);
    w_u32(w, at, n);
    memcpy(w->p + at + 4, v, 8 * (size_t)n);
    return at;
}

/* n offset placeholders, linked by the caller */
static inline size_t w_vec_off(fbw *w, uint32_t n) {
    size_t at = w_take(w, 4 + 4 * (size_t)n, 4, 0);
    w_u32(w, at, n);
    return at;
}

static inline size_t w_string(fbw *w, const char *s) {
    size_t n = strlen(s);
    size_t at = w_take(w, 4 + n + 1, 4, 0);
    w_u32(w, at, (uint32_t)n);
    memcpy(w->p + at + 4, s, n);
    return at;
}

/* ---- model descriptions ------------------------------------------------------ */

#define MAX_T 12
#define MAX_O 8
#define MAX_IO 6

typedef struct {
    int8_t type; /* TFL_TYPE_* */
    int rank;
    int32_t shape[5];
    const void *data; /* constant data, or NULL */
    size_t data_bytes;
    int variable;
    float scale; /* quantised when != 0 */
    int64_t zp;
} tdesc;

typedef struct {
    int32_t code; /* builtin operator code */
    int n_in, n_out;
    int32_t in[MAX_IO], out[MAX_IO];
    const char *custom;   /* custom_code of a CUSTOM op */
    const uint8_t *copts; /* custom options bytes, or NULL */
    size_t n_copts;
    int opt_type; /* TFL_OPT_*, 0 none */
    int n_opt;    /* option slots; -1: options type without a table */
    fld opt[8];
} odesc;

typedef struct {
    int nt, no, n_in, n_out;
    tdesc t[MAX_T];
    odesc o[MAX_O];
    int32_t in[MAX_IO], out[MAX_IO];
} sgdesc;

typedef struct {
    int nsg;
    sgdesc sg[6];
} mdesc;

static inline unsigned char *write_model(const mdesc *m, size_t *len) {
    fbw w = {0};
    size_t hdr = w_take(&w, 8, 4, 0);
    memcpy(w.p + 4, TFL_FILE_IDENTIFIER, 4);
    size_t mf[5];
    const fld model[5] = {{F_I32, 3}, {F_OFF}, {F_OFF}, {F_ABSENT}, {F_OFF}};
    w_link(&w, hdr, w_table(&w, 5, model, mf));
    /* one operator code per op, in op order over the subgraphs */
    int n_ops = 0, n_bufs = 1;
    for (int s = 0; s < m->nsg; s++) {
        n_ops += m->sg[s].no;
        for (int i = 0; i < m->sg[s].nt; i++) n_bufs += m->sg[s].t[i].data != NULL;
    }
    size_t ocv = w_vec_off(&w, (uint32_t)n_ops);
    w_link(&w, mf[1], ocv);
    int k = 0;
    for (int s = 0; s < m->nsg; s++)
        for (int i = 0; i < m->sg[s].no; i++, k++) {
            const int32_t code = m->sg[s].o[i].code;
            const char *custom = m->sg[s].o[i].custom;
            size_t of[4] = {0};
            const fld oc[4] = {{F_U8, code < 127 ? code : 127}, {custom ? F_OFF : F_ABSENT}, {F_I32, 1}, {F_I32, code}};
            w_link(&w, ocv + 4 + 4 * (size_t)k, w_table(&w, 4, oc, of));
            if (custom) w_link(&w, of[1], w_string(&w, custom));
        }
    size_t sgv = w_vec_off(&w, (uint32_t)m->nsg);
    w_link(&w, mf[2], sgv);
    int buf = 1, opi = 0;
    for (int s = 0; s < m->nsg; s++) {
        const sgdesc *g = &m->sg[s];
        size_t sf[4];
        const fld sgd[4] = {{F_OFF}, {F_OFF}, {F_OFF}, {F_OFF}};
        w_link(&w, sgv + 4 + 4 * (size_t)s, w_table(&w, 4, sgd, sf));
        size_t tv = w_vec_off(&w, (uint32_t)g->nt);
        w_link(&w, sf[0], tv);
        for (int i = 0; i < g->nt; i++) {
            const tdesc *t = &g->t[i];
            size_t tf[6] = {0};
            char name[16];
            snprintf(name, sizeof name, "t%d", i);
            const fld td[6] = {{F_OFF},
                               {F_U8, t->type},
                               {F_I32, t->data ? buf++ : 0},
                               {F_OFF},
                               {t->scale != 0.0f ? F_OFF : F_ABSENT},
                               {F_U8, t->variable}};
            w_link(&w, tv + 4 + 4 * (size_t)i, w_table(&w, 6, td, tf));
            w_link(&w, tf[0], w_vec_i32(&w, (uint32_t)t->rank, t->shape));
            w_link(&w, tf[3], w_string(&w, name));
            if (t->scale != 0.0f) {
                size_t qf[7];
                const fld qd[7] = {{F_ABSENT}, {F_ABSENT}, {F_OFF}, {F_OFF}, {F_ABSENT}, {F_ABSENT}, {F_I32, 0}};
                w_link(&w, tf[4], w_table(&w, 7, qd, qf));
                int32_t sc;
                memcpy(&sc, &t->scale, 4);
                w_link(&w, qf[2], w_vec_i32(&w, 1, &sc));
                w_link(&w, qf[3], w_vec_i64(&w, 1, &t->zp));
            }
        }
        w_link(&w, sf[1], w_vec_i32(&w, (uint32_t)g->n_in, g->in));
        w_link(&w, sf[2], w_vec_i32(&w, (uint32_t)g->n_out, g->out));
        size_t ov = w_vec_off(&w, (uint32_t)g->no);
        w_link(&w, sf[3], ov);
        for (int i = 0; i < g->no; i++, opi++) {
            const odesc *o = &g->o[i];
            size_t of[6] = {0};
            const fld od[6] = {{F_I32, opi},
                               {F_OFF},
                               {F_OFF},
                               {o->opt_type ? F_U8 : F_ABSENT, o->opt_type},
                               {o->opt_type && o->n_opt >= 0 ? F_OFF : F_ABSENT},
                               {o->copts ? F_OFF : F_ABSENT}};
            w_link(&w, ov + 4 + 4 * (size_t)i, w_table(&w, 6, od, of));
            if (o->copts) w_link(&w, of[5], w_vec_bytes(&w, o->n_copts, o->copts));
            w_link(&w, of[1], w_vec_i32(&w, (uint32_t)o->n_in, o->in));
            w_link(&w, of[2], w_vec_i32(&w, (uint32_t)o->n_out, o->out));
            if (o->opt_type && o->n_opt >= 0) {
                /* string fields are offsets: written after the table */
                fld of2[8];
                size_t opos[8];
                for (int f = 0; f < o->n_opt && f < 8; f++) {
                    of2[f] = o->opt[f];
                    if (of2[f].kind == F_STR) of2[f].kind = F_OFF;
                }
                w_link(&w, of[4], w_table(&w, o->n_opt, of2, opos));
                for (int f = 0; f < o->n_opt && f < 8; f++)
                    if (o->opt[f].kind == F_STR) w_link(&w, opos[f], w_string(&w, o->opt[f].s));
            }
        }
    }
    size_t bv = w_vec_off(&w, (uint32_t)n_bufs);
    w_link(&w, mf[4], bv);
    w_link(&w, bv + 4, w_table(&w, 0, NULL, NULL));
    buf = 1;
    for (int s = 0; s < m->nsg; s++)
        for (int i = 0; i < m->sg[s].nt; i++) {
            const tdesc *t = &m->sg[s].t[i];
            if (!t->data) continue;
            size_t bf[1];
            const fld bd[1] = {{F_OFF}};
            w_link(&w, bv + 4 + 4 * (size_t)buf++, w_table(&w, 1, bd, bf));
            w_link(&w, bf[0], w_vec_bytes(&w, t->data_bytes, t->data));
        }
    w_take(&w, 0, 16, 0);
    *len = w.n;
    return w.p;
}

/* ---- building blocks ------------------------------------------------------------ */

static inline tdesc tf32(int rank, int32_t d0, int32_t d1, int32_t d2, int32_t d3) {
    tdesc t = {TFL_TYPE_FLOAT32, rank, {d0, d1, d2, d3, 0}, NULL, 0, 0, 0.0f, 0};
    return t;
}
static inline tdesc tconst(tdesc t, const void *data, size_t bytes) {
    t.data = data;
    t.data_bytes = bytes;
    return t;
}
static inline odesc op2(int32_t code, int32_t a, int32_t b, int32_t out) {
    odesc o = {code, 2, 1, {a, b}, {out}, NULL, NULL, 0, 0, 0, {{0}}};
    return o;
}
static inline void io(sgdesc *g, int n_in, const int32_t *in, int n_out, const int32_t *out) {
    g->n_in = n_in;
    g->n_out = n_out;
    memcpy(g->in, in, sizeof(int32_t) * (size_t)n_in);
    memcpy(g->out, out, sizeof(int32_t) * (size_t)n_out);
}
#endif
