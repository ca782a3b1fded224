/*
 * Internal: what one op definition is made of, and the helpers its
 * prepare and invoke share (src/runtime/ops/core.c).
 *
 * An op file (src/runtime/ops/<kind>.c) owns one op kind, or a tight family
 * that shares its params struct: the params struct and its field list (how
 * it is frozen into record words), the prepare that derives the record from
 * the graph, the invoke that runs the kernels from it, its scratch and state
 * sizes and its flags.  It exports one `ta_op_def` per kind; the list of all
 * definitions is ta_op_list_all (all.c).  Adding an op is one file, one
 * line there and its extern in include/tinyarena/ops.h.
 *
 * The record (ops.h): w0 kind | path << 16, w1 n_in | n_out << 16, w2
 * scratch bytes, w3 params words, the io tensor indices, the params words
 * (the field list, in order), then 8-aligned tables.  Kinds and paths are
 * part of the const-blob format: never renumber them.
 */
#ifndef TA_RUNTIME_OPS_OP_H
#define TA_RUNTIME_OPS_OP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/util.h"
#include "runtime/ops.h"
#include "tinyarena/kernels.h"
#include "tinyarena/ops.h"

/* Which kernel variant a record runs (the record's path byte). */
enum {
    TA__P_NONE = 0,
    TA__P_S8,
    TA__P_S16,
    TA__P_F32,
    TA__P_S8_S16, /* softmax int8 -> int16 */
    TA__P_COPY,
    TA__P_S16_B32, /* int16 conv with int32 bias (or none) */
    TA__P_S8_S8,   /* svdf with int8 time weights and state */
    TA__P_S32,     /* int32 ADD, MUL, DIV */
    TA__P_S8_INPLACE, /* depthwise int8 over its input through a one-channel scratch (DWINPLACE) */
    TA__P_F32_INPLACE, /* the same, float32 */
    TA__P_S8_GATHER,   /* transpose conv int8, output-stationary, no scratch (GATHER) */
    TA__P_S16_GATHER   /* the same, int16 x int8 */
};

/* Record kinds of the custom ops that have a kernel: TFLM's signal library.
 * They import as TA_OP_CUSTOM named by their custom code; their records
 * carry these kinds, above every ta_op_kind and fixed, so that records stay
 * the same when builtin kinds are added. */
enum {
    TA__K_SIGNAL = 0x100,
    TA__K_SIG_WINDOW = TA__K_SIGNAL,
    TA__K_SIG_FFT_AUTO_SCALE,
    TA__K_SIG_RFFT,
    TA__K_SIG_ENERGY,
    TA__K_SIG_FILTER_BANK,
    TA__K_SIG_FB_SQRT,
    TA__K_SIG_SPECTRAL_SUB,
    TA__K_SIG_PCAN,
    TA__K_SIG_FB_LOG
};

/* ---- field lists: how a params struct becomes record words --------------- */

/* Field types: how a field is stored in the host struct and in the record. */
enum {
    TA__F_I32 = 1,
    TA__F_F32,
    TA__F_RAW4,
    TA__F_BOOL,
    TA__F_SIZE, /* a size_t as one word (prepare refuses values above 32 bits) */
    TA__F_I64,  /* two words, low first */
    TA__F_DTYPE,
    TA__F_PTR,  /* a table inside the record, as its offset from the record start (0: NULL) */
    TA__F_EDGE  /* a nested struct's start or end: padding may precede it */
};

typedef struct ta__field {
    uint16_t off;  /* offsetof(params struct, field) */
    uint8_t type;  /* TA__F_* */
    uint8_t count; /* array elements (1: a scalar) */
} ta__field;

#define TA__FIELD(T, m, t) {(uint16_t)offsetof(T, m), t, 1}
#define TA__FIELDS(T, m, t, n) {(uint16_t)offsetof(T, m), t, n}
/* A ta_dims4, a ta_requant and a ta_broadcast member, field by field. */
#define TA__DIMS4(T, m)                                                                                         \
    TA__FIELD(T, m.n, TA__F_I32), TA__FIELD(T, m.h, TA__F_I32), TA__FIELD(T, m.w, TA__F_I32),                 \
        TA__FIELD(T, m.c, TA__F_I32)
#define TA__REQUANT(T, m)                                                                                       \
    {(uint16_t)offsetof(T, m), TA__F_EDGE, 0}, TA__FIELD(T, m.input_offset, TA__F_I32),                        \
        TA__FIELD(T, m.weights_offset, TA__F_I32), TA__FIELD(T, m.output_offset, TA__F_I32),                    \
        TA__FIELD(T, m.mult, TA__F_PTR), TA__FIELD(T, m.shift, TA__F_PTR), TA__FIELD(T, m.per_channel, TA__F_BOOL), \
        TA__FIELD(T, m.act_min, TA__F_I32), TA__FIELD(T, m.act_max, TA__F_I32),                                 \
        {(uint16_t)(offsetof(T, m) + sizeof(ta_requant)), TA__F_EDGE, 0}
#define TA__BCAST(T, m)                                                                                         \
    TA__FIELD(T, m.rank, TA__F_I32), TA__FIELDS(T, m.in1, TA__F_I32, TA_KERNEL_MAX_BROADCAST_RANK),            \
        TA__FIELDS(T, m.in2, TA__F_I32, TA_KERNEL_MAX_BROADCAST_RANK),                                          \
        TA__FIELDS(T, m.out, TA__F_I32, TA_KERNEL_MAX_BROADCAST_RANK)
#define TA__COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Field lists read best in short names: an op file defines TA__PARAMS_T as
 * the params struct a list describes, writes the list with these, and
 * undefines it. */
#define F(m, t) TA__FIELD(TA__PARAMS_T, m, t)
#define FA(m, t, n) TA__FIELDS(TA__PARAMS_T, m, t, n)
#define D4(m) TA__DIMS4(TA__PARAMS_T, m)
#define REQUANT(m) TA__REQUANT(TA__PARAMS_T, m)
#define BCAST(m) TA__BCAST(TA__PARAMS_T, m)

/* Where the compiler can say which bytes of a struct are padding (GCC's
 * __builtin_clear_padding), the layout check proves that every other byte
 * belongs to a described field.  An op file gives each params struct a
 * TA__CLEAR_PADDING_FN(name, T) and points its definition at it. */
#if defined(__has_builtin)
#if __has_builtin(__builtin_clear_padding)
#define TA__HAVE_CLEAR_PADDING 1
#endif
#endif
#ifdef TA__HAVE_CLEAR_PADDING
#define TA__CLEAR_PADDING_FN(name, T)                                                                           \
    static void name(void *p) { __builtin_clear_padding((T *)p); }
#define TA__CLEAR_PADDING(name) name
#else
#define TA__CLEAR_PADDING_FN(name, T)
#define TA__CLEAR_PADDING(name) NULL
#endif

/* The largest params struct any op uses (each op file asserts its own). */
#define TA__OP_PARAMS_MAX 512u

/* ---- prepare ---------------------------------------------------------------- */

typedef struct ta__op_ctx {
    const ta_graph *g;
    uint32_t sg, index;
    const ta_op *op;
    const ta_op_def *def;
    ta_diag *diag;
    ta__bump carve;    /* the record block (base NULL: count only); tables come from here */
    void *params;      /* the definition's params struct, zeroed: prepare fills it */
    uint8_t path;      /* TA__P_*: which kernel invoke runs */
    size_t scratch;    /* kernel scratch bytes during invoke */
    size_t state;      /* bytes of state the op keeps between invokes */
} ta__op_ctx;

/* ---- invoke ----------------------------------------------------------------- */

typedef struct ta__op_run {
    const void *params; /* decoded from the record: pointers resolved into it */
    unsigned kind;      /* the record kind */
    uint8_t path;
    uint16_t n_in, n_out;
    const int32_t *io;  /* n_in inputs then n_out outputs, tensor indices (-1: absent) */
    void *const *ptrs;  /* per tensor: its data */
    void *scratch;
    size_t scratch_bytes;
    void *state;        /* the op's state (ta_op_def.state_bytes), or NULL */
    const ta__op_host *host; /* TA__OP_HOST ops: the runtime (NULL: none) */
    ta_diag *diag;      /* TA__OP_HOST ops fill it themselves */
    bool check_walk;    /* poison mode: a TA__OVERLAP_ROWS op verifies, row by
                           row, that its output overlaps no input byte its
                           walk still reads (TA_E_OVERLAP otherwise) */
} ta__op_run;

/* ---- the ROWS walk (walk.h TA_CONV_WALK_ROWS) ------------------------------------ */

/* True when [a, a + an) and [b, b + bn) share a byte (compared as
 * addresses: the two may be parts of one arena). */
static inline bool ta__op_bytes_overlap(const void *a, size_t an, const void *b, size_t bn) {
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return an && bn && x < y + bn && y < x + an;
}

/* Output row oy of a window op (stride, leading padding pad, dilation,
 * taps rows): the first input row a window of it touches (*first) and the
 * leading padding of a one-row call whose input starts there (*lead, >= 0:
 * its first tap lands on row 0 of that call).  False when every window of
 * the row lies in the padding (no row to start from). */
bool ta__op_row_window(int32_t oy, int32_t stride, int32_t pad, int32_t dilation, int32_t taps, int32_t in_h,
                       int32_t *first, int32_t *lead);

/* The lowest input row any output row from oy to out_h - 1 reads (the
 * least of their windows' first in-bounds rows), or -1 when none reads
 * one.  Not always oy's own: with dilation, a window in the top padding
 * may skip rows the next window starts at. */
int32_t ta__op_rows_low(int32_t oy, int32_t out_h, int32_t stride, int32_t pad, int32_t dilation, int32_t taps,
                        int32_t in_h);

/* How many consecutive output rows (1 .. rows_left), the first at out, may
 * run in one kernel call: the most whose bytes (out_row each) miss every
 * input byte from in_first (ta__op_rows_low's row) to in_end -- what this
 * band and every later one may read, so the walk is the ROWS walk
 * whatever order the kernel has inside the call.  0 when even one row
 * lands on them (the plan overlaps closer than the walk permits). */
static inline int32_t ta__op_rows_band(const void *in_first, const void *in_end, const void *out, size_t out_row,
                                       int32_t rows_left) {
    const size_t span = (size_t)((const uint8_t *)in_end - (const uint8_t *)in_first);
    int32_t k = 0;
    while (k < rows_left && !ta__op_bytes_overlap(out, (size_t)(k + 1) * out_row, in_first, span)) k++;
    return k;
}

/* A window op's ROWS-walk geometry (NHWC; rows of in_row / out_row bytes). */
typedef struct {
    int32_t in_n, in_h, out_n, out_h;
    int32_t stride, pad, dilation, taps; /* along the rows */
    size_t in_row, out_row;              /* bytes */
} ta__op_rows_geom;

/* One band of the walk: out_h output rows of one image, from out, reading
 * in_h input rows from in, with pad rows of leading padding. */
typedef struct {
    const uint8_t *in;
    uint8_t *out;
    int32_t in_h, out_h, pad;
    /* elementwise ops (ta__op_banded.set_rows): input 1's band (binary
     * ops) and the rows of the whole output (the band is out_h of them) */
    const uint8_t *in2;
    int32_t h;
} ta__op_band;

/* Runs the op's kernel once: over the whole tensors when band is NULL, or
 * over one band (one image, band's rows and padding).  ctx is the op's. */
typedef ta_status (*ta__op_band_fn)(const ta__op_run *r, const void *ctx, const ta__op_band *band);

/* A window op's run: one call (band NULL) when in and out share no byte;
 * else walk.h's ROWS walk, output rows in order, each band as many rows as
 * ta__op_rows_band allows.  TA_E_OVERLAP when the addresses break the walk
 * (no band fits) in r->check_walk mode; else what call returns. */
ta_status ta__op_rows_walk(const ta__op_run *r, const ta__op_rows_geom *g, const void *in, void *out,
                           ta__op_band_fn call, const void *ctx);


/* A window op that a patch stage can run band by band (runtime_patch.c):
 * its ROWS geometry from the decoded params, and one kernel call on a band
 * (ctx: the decoded params). */
typedef struct ta__op_banded {
    void (*geom)(const ta__op_run *r, ta__op_rows_geom *g);
    ta__op_band_fn band;
    /* An elementwise op (band NULL; band_elem.c): its geom gives in_n =
     * out_n = 1 when it can run on rows (no broadcasting), 0 else; in_h =
     * out_h = its rows when the params know them (binary ops), else 0 and
     * in_row / out_row the whole tensors' bytes.  set_rows makes the decoded
     * params those of `rows` of the `h` rows (false: they do not divide). */
    bool (*set_rows)(void *params, int32_t rows, int32_t h);
} ta__op_banded;

/* band_elem.c: the elementwise band call -- the op's own invoke on the
 * band's pointers with params (the decoded copy) cut to the band's rows;
 * and the geometry and row cuts of count-based unary and broadcast-shaped
 * binary params. */
ta_status ta__op_elem_band(const ta_op_def *d, const ta__op_run *r, void *params, const ta__op_band *b);
void ta__op_geom_unary(const ta__op_run *r, size_t count, ta__op_rows_geom *g);
void ta__op_geom_binary(const ta__op_run *r, const ta_broadcast *b, ta__op_rows_geom *g);
bool ta__op_rows_unary(size_t *count, int32_t rows, int32_t h);
bool ta__op_rows_binary(ta_broadcast *b, int32_t rows, int32_t h);

/* Input k's data (NULL when absent); output k's. */
static inline void *ta__op_in_ptr(const ta__op_run *r, uint32_t k) {
    return k < r->n_in && r->io[k] >= 0 ? r->ptrs[r->io[k]] : NULL;
}
static inline void *ta__op_out_ptr(const ta__op_run *r, uint32_t k) {
    return k < r->n_out && r->io[r->n_in + k] >= 0 ? r->ptrs[r->io[r->n_in + k]] : NULL;
}

/* ---- the definition ---------------------------------------------------------- */

/* Flags. */
enum {
    /* The kernel reads element i of every input before it writes element i
     * of the output, for every i: with inputs and output of one shape (no
     * broadcasting) and one element size, the output may be an input's
     * buffer.  The INPLACE rewrite (rewrite.h) reads this flag through
     * ta_op_list_inplace_kinds (ops.h). */
    TA__OP_INPLACE = 1u << 0,
    /* The op keeps state between invokes (state_bytes): the runtime gives it
     * that many persistent bytes, zeroed by init and ta_runtime_reset. */
    TA__OP_STATE = 1u << 1,
    /* The op runs subgraphs or reads and writes resource variables through
     * ta__op_run.host, and fills ta__op_run.diag itself on failure. */
    TA__OP_HOST = 1u << 2
};

/* What overlap of an output with an input the kernel tolerates beyond
 * TA__OP_INPLACE.  TA__OVERLAP_ROWS: when output 0 overlaps input 0 the op
 * runs walk.h's ROWS walk (ta__op_rows: one kernel call per output row, in
 * order), so the OVERLAP rewrite may declare the relation that walk
 * tolerates (ta_op_list_overlap_kinds, ops.h). */
enum { TA__OVERLAP_NONE = 0, TA__OVERLAP_ROWS = 1, TA__OVERLAP_GATHER = 2, TA__OVERLAP_BACKWARD = 3, TA__OVERLAP_CONCAT = 4 };
/* TA__OVERLAP_GATHER: the op copies output elements in order, each from a
 * strictly later input element than the one before (a forward gather:
 * walk.h's ta_walk_gather), reading each before writing it, and moves
 * overlapping bytes with memmove; in poison mode (check_walk) it refuses
 * an output placed above what that walk tolerates (TA_E_OVERLAP). */
/* TA__OVERLAP_BACKWARD: the op (PAD) writes its output from the last
 * element down whenever the output overlaps its input (walk.h
 * ta_walk_pad_backward); in poison mode it refuses an input that starts
 * higher above the output than that walk tolerates (TA_E_OVERLAP). */
/* TA__OVERLAP_CONCAT: the op (CONCATENATION) moves each step's input blocks
 * forward, in input order (walk.h ta_walk_concat), so one input may lie
 * inside the output's bytes; in poison mode it refuses an input placed
 * lower under the output than that walk tolerates, or two inputs over it
 * (TA_E_OVERLAP). */

/* What an op's kernels need of the alignment of its buffers (issue 17), in
 * bytes, beyond each operand's element size -- which every operand gets
 * under every alignment rule (lifetime.h), so an op whose kernels read and
 * write each operand through its own element type declares nothing.  The
 * planner takes, per buffer, the largest alignment any op touching it
 * declares (ta_runtime_operand_align, ta_runtime_scratch_requests).
 * Audit (src/runtime/kernels): the fast int8 kernels load words only through
 * memcpy (ta__ld32, dot_s8.h), x86 through unaligned loads (loadu), and the
 * Cortex-M DSP assembly's LDR of input bytes is an unaligned-capable LDR on
 * armv7-m (its LDMs read the stack buffer and the records, 8-aligned);
 * armv6-m code loads bytes.  So int8 operands need 1.  Kernel scratch is
 * read as wider types (LSTM int16 gates, SVDF and MEAN int32 sums,
 * TRANSPOSE_CONV int32/int64 accumulators) and each kernel refuses a
 * scratch it cannot read: those ops declare it. */
#define TA__OP_ALIGN_IN 8
#define TA__OP_ALIGN_OUT 2
typedef struct ta__op_align {
    uint16_t in[TA__OP_ALIGN_IN];   /* input k (0: its element size) */
    uint16_t out[TA__OP_ALIGN_OUT]; /* output k (0: its element size) */
    uint16_t scratch;               /* the kernel scratch buffer (0: 16) */
} ta__op_align;

struct ta_op_def {
    uint16_t kind;          /* the record kind: a ta_op_kind, or a TA__K_SIG_* */
    uint16_t flags;         /* TA__OP_* */
    uint8_t overlap;        /* TA__OVERLAP_* (placeholder, see above) */
    const char *name;       /* ta_op_kind_str(kind), or the custom op's name */
    const ta__field *fields;
    uint16_t n_fields;
    uint16_t params_bytes;  /* sizeof the params struct the fields describe */
    void (*clear_padding)(void *params); /* layout check; NULL without the builtin */
    ta_status (*prepare)(ta__op_ctx *c);
    ta_status (*invoke)(const ta__op_run *r);
    /* TA__OP_STATE: the state bytes from the decoded params; else NULL */
    uint32_t (*state_bytes)(const void *params);
    /* the element types the op computes on (its data input; SELECT_V2's x
     * and y) that its prepare accepts: bit
     * 1u << ta_dtype each (TA__T); TA__T_ANY for data movement that takes
     * any fixed-size element.  The README's op table is generated from it
     * (`tinyarena ops --markdown`, ta_op_def_types). */
    uint32_t types;
    /* What its kernels need beyond element sizes (above); NULL: nothing. */
    const ta__op_align *align;
    /* Band by band execution (patch.h); NULL: the op cannot be a stage op. */
    const ta__op_banded *banded;
    /* TA__OP_HOST ops: how a runtime hosts them from an init table
     * (ops.h, ta__op_flow_table); NULL for every other op. */
    const struct ta__flow_table *flow_table;
};

/* Type bits of ta_op_def.types. */
#define TA__T(t) (1u << TA_DTYPE_##t)
#define TA__T_ANY 0xFFFFFFFFu

/* A definition with record kind `kind` (a ta_op_kind, or a TA__K_SIG_* for
 * a custom op), name `name`, params struct T and field list FL, flags fl,
 * state bytes function `state` (TA__OP_STATE) or NULL, the input types it
 * runs (TA__T bits, see ta_op_def.types), its overlap walk ov
 * (TA__OVERLAP_*) and its alignment declarations al (a ta__op_align, or
 * NULL); designated, so that fields added after state_bytes keep their own
 * order. */
/* A firmware that initialises from a budget's init table only never runs a
 * prepare: built with -DTA_OPS_NO_PREPARE (examples/cortex_m/build.sh without
 * --rederive) the definitions hold none, so the prepares and the
 * quantisation helpers they call are not linked; the work-block path then
 * refuses every op ("built without prepare"). */
#ifdef TA_OPS_NO_PREPARE
#define TA__OP_PREP(prep) (0 ? (prep) : NULL)
#else
#define TA__OP_PREP(prep) (prep)
#endif
/* Band-by-band execution likewise, unless the firmware's header has patch
 * stages (its init table carries them) and it is built with TA_OPS_PATCHES:
 * otherwise such a firmware links no band geometry. */
#if defined(TA_OPS_NO_PREPARE) && !defined(TA_OPS_PATCHES)
#define TA__OP_BANDED(bd) (0 ? (bd) : NULL)
#else
#define TA__OP_BANDED(bd) (bd)
#endif
#define TA__OP_DEF_RAW(sym, kind, name, T, FL, clear, prep, run, fl, state, ty, ov, al)                           \
    const ta_op_def sym = {(uint16_t)(kind), (uint16_t)(fl), (uint8_t)(ov), name, FL, (uint16_t)TA__COUNT(FL),   \
                           (uint16_t)sizeof(T), clear, TA__OP_PREP(prep), run, state, .types = (uint32_t)(ty),   \
                           .align = (al)};                                                                        \
    _Static_assert(sizeof(T) <= TA__OP_PARAMS_MAX, "params struct above TA__OP_PARAMS_MAX")
/* A builtin: kind K is a ta_op_kind name without TA_OP_, which is its name. */
#define TA__OP_DEF_FULL(sym, K, T, FL, clear, prep, run, fl, ty, ov, al) \
    TA__OP_DEF_RAW(sym, TA_OP_##K, #K, T, FL, clear, prep, run, fl, NULL, ty, ov, al)
/* A window op with the ROWS walk that also runs on bands (ta__op_banded). */
#define TA__OP_DEF_BANDED(sym, K, T, FL, clear, prep, run, fl, ty, bd)                                             \
    const ta_op_def sym = {(uint16_t)(TA_OP_##K), (uint16_t)(fl), (uint8_t)TA__OVERLAP_ROWS, #K, FL,                \
                           (uint16_t)TA__COUNT(FL), (uint16_t)sizeof(T), clear, TA__OP_PREP(prep), run, NULL,       \
                           .types = (uint32_t)(ty), .align = NULL, .banded = TA__OP_BANDED(bd)};                    \
    _Static_assert(sizeof(T) <= TA__OP_PARAMS_MAX, "params struct above TA__OP_PARAMS_MAX")
/* An elementwise op that a patch stage can run on a band of rows
 * (ta__op_banded with set_rows); no overlap walk, no alignment. */
#define TA__OP_DEF_ELEM(sym, K, T, FL, clear, prep, run, fl, ty, bd)                                               \
    const ta_op_def sym = {(uint16_t)(TA_OP_##K), (uint16_t)(fl), (uint8_t)TA__OVERLAP_NONE, #K, FL,                \
                           (uint16_t)TA__COUNT(FL), (uint16_t)sizeof(T), clear, TA__OP_PREP(prep), run, NULL,       \
                           .types = (uint32_t)(ty), .align = NULL, .banded = TA__OP_BANDED(bd)};                    \
    _Static_assert(sizeof(T) <= TA__OP_PARAMS_MAX, "params struct above TA__OP_PARAMS_MAX")
/* A TA__OP_HOST op (control flow, resource variables): any element type,
 * and the init-table path's host named (ta__rt_flow_table), so that it
 * links with the op's definition and not otherwise. */
#define TA__OP_DEF_HOSTED(sym, kind, name, T, FL, clear, prep, run, fl, state)                                    \
    const ta_op_def sym = {(uint16_t)(kind), (uint16_t)((fl) | TA__OP_HOST), (uint8_t)TA__OVERLAP_NONE, name, FL,   \
                           (uint16_t)TA__COUNT(FL), (uint16_t)sizeof(T), clear, TA__OP_PREP(prep), run, state,     \
                           .types = TA__T_ANY, .align = NULL, .flow_table = &ta__rt_flow_table};                    \
    _Static_assert(sizeof(T) <= TA__OP_PARAMS_MAX, "params struct above TA__OP_PARAMS_MAX")
/* No overlap walk, no alignment beyond element sizes. */
#define TA__OP_DEF(sym, K, T, FL, clear, prep, run, fl, ty) \
    TA__OP_DEF_FULL(sym, K, T, FL, clear, prep, run, fl, ty, TA__OVERLAP_NONE, NULL)
/* The same with alignment declarations `al` (a ta__op_align). */
#define TA__OP_DEF_ALIGNED(sym, K, T, FL, clear, prep, run, fl, ty, al) \
    TA__OP_DEF_FULL(sym, K, T, FL, clear, prep, run, fl, ty, TA__OVERLAP_NONE, al)
/* The same with an overlap walk (TA__OVERLAP_*). */
#define TA__OP_DEF_OV(sym, K, T, FL, clear, prep, run, fl, ty, ov) \
    TA__OP_DEF_FULL(sym, K, T, FL, clear, prep, run, fl, ty, ov, NULL)

/* ---- shared prepare helpers (core.c) ------------------------------------------ */

/* The op's name for messages: its custom name, else its kind. */
const char *ta__op_ctx_name(const ta__op_ctx *c);
/* "op 3 (CONV_2D): what" */
ta_status ta__op_fail(const ta__op_ctx *c, ta_status st, const char *what);
/* "op 3 (CONV_2D): role type int16 is not supported" (TA_E_UNSUPPORTED) */
ta_status ta__op_fail_type(const ta__op_ctx *c, const char *role, ta_dtype t);
/* Input / output k's tensor (NULL when absent). */
const ta_tensor *ta__op_in(const ta__op_ctx *c, uint32_t k);
const ta_tensor *ta__op_out(const ta__op_ctx *c, uint32_t k);
/* First scale, first zero point (0 when not quantised), element count. */
float ta__op_scale(const ta_tensor *t);
int32_t ta__op_zp(const ta_tensor *t);
int64_t ta__op_elems(const ta_tensor *t);
/* min_in..max_in inputs, n_out outputs, the first min_in inputs and every
 * output present. */
ta_status ta__op_need_io(ta__op_ctx *c, uint32_t min_in, uint32_t max_in, uint32_t n_out);
/* A 4-D tensor with positive dims. */
ta_status ta__op_dims4(const ta__op_ctx *c, const ta_tensor *t, ta_dims4 *d);
/* A constant int32 operand (axis, perm, paddings...): data and count. */
ta_status ta__op_const_i32(const ta__op_ctx *c, const ta_tensor *t, const int32_t **v, int64_t *n);
/* The float activation range of the op's fused activation. */
ta_status ta__op_float_act(ta__op_ctx *c, float *lo, float *hi);
/* A table of `bytes` in the record (8-aligned); NULL in the size pass. */
void *ta__op_take(ta__op_ctx *c, size_t bytes);
/* ADD, SUB, MUL, DIV, MINIMUM, MAXIMUM: two inputs and the output of one
 * type, shapes that broadcast to the output's; float32: TA__P_F32 and the
 * activation range. */
ta_status ta__op_prep_binary(ta__op_ctx *c, ta_broadcast *shape, float *f_act_min, float *f_act_max);
/* MEAN, SUM, REDUCE_MAX, REDUCE_MIN: an input, constant int32 axes and an
 * output of the input's type holding the reduction's element count; fills
 * *m's shape and reduced axes (rank at most 5). */
ta_status ta__op_reduce_axes(ta__op_ctx *c, ta_mean_params *m);
/* Elementwise unary ops: one input and one output of one type and size;
 * *count their elements; float32: TA__P_F32. */
ta_status ta__op_prep_unary(ta__op_ctx *c, size_t *count);
/* A variable (state) operand: present, flagged variable, of this type. */
ta_status ta__op_need_state(ta__op_ctx *c, const ta_tensor *t, ta_dtype type, const char *what);

/* Weighted ops (weights.c): CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
 * TRANSPOSE_CONV.  int8: int8 weights (`role` in messages) and output,
 * int32 bias or none, TA__P_S8 and the requantisation table (per tensor for
 * FULLY_CONNECTED with one weight scale). */
ta_status ta__op_prep_s8_weights(ta__op_ctx *c, const ta_tensor *in, const ta_tensor *w, const ta_tensor *b,
                                 const ta_tensor *out, const char *role, int32_t channels, bool fc_per_tensor,
                                 ta_requant *q);
/* The bias (when given) has one element per output channel. */
ta_status ta__op_bias_len(const ta__op_ctx *c, const ta_tensor *b, int32_t channels);
/* The int16 paths' int64 accumulator stays below 2^47: |bias| plus `depth`
 * products of at most 2^prod_bits (the bias must be constant). */
ta_status ta__op_acc64_ok(const ta__op_ctx *c, const ta_tensor *b, int64_t depth, int prod_bits);
/* float32: float32 weights and output, float32 bias when given; TA__P_F32. */
ta_status ta__op_prep_f32_weights(ta__op_ctx *c, const ta_tensor *w, const ta_tensor *b, const ta_tensor *out,
                                  const char *role, float *lo, float *hi);
/* int16 x int8 (CONV_2D, TRANSPOSE_CONV): TA__P_S16 or TA__P_S16_B32. */
ta_status ta__op_prep_s16x8(ta__op_ctx *c, const ta_tensor *in, const ta_tensor *w, const ta_tensor *b,
                            const ta_tensor *out, ta_requant *q, int32_t channels, bool allow_b32);

/* ---- the table ------------------------------------------------------------------ */

/* One definition's field list against its params struct (ta__op_layout_check). */
ta_status ta__op_def_layout_check(const ta_op_def *d, ta_diag *diag);
/* The definition of `list` that runs op (NULL: none). */
const ta_op_def *ta__op_def_for(const ta_op_list *list, const ta_op *op);
/* The definition of `list` for a record kind (NULL: none). */
const ta_op_def *ta__op_def_of_kind(const ta_op_list *list, unsigned kind);

#endif
