/*
 * The op layer: per op kind, a prepare that turns graph facts (types,
 * shapes, quantisation, options, constant operands) into a kernel params
 * record, and an invoke that runs the kernel from the record.
 *
 * Prepare steps, for every kind:
 *  1. check operand count and types; an unsupported combination is reported
 *     with the op's index, kind and the type;
 *  2. derive shapes and quantisation constants exactly as TFLM's Prepare
 *     does for that kernel (helpers in kernels.h);
 *  3. carve the record (header + tensor indices + params + tables) from the
 *     caller block, or only count its bytes when the block is NULL.
 *
 * The record is frozen: portable and position-independent, so that it can
 * be exported (ta_runtime_export_consts), emitted into a C header on a host
 * and read from flash on a target with another ABI.  It holds no pointer and
 * no size_t, only 32-bit words in the host's byte order:
 *
 *   w0 kind | path << 16     w1 n_in | n_out << 16
 *   w2 scratch bytes         w3 np: params words
 *   io[n_in + n_out]         tensor indices (-1: absent)
 *   params[np]               the kind's params, field by field (k_fields)
 *   tables                   8-aligned: per-channel multipliers (int32) and
 *                            shifts (int8), concat sizes (int64)
 *
 * A pointer field is written as its table's offset from the record start
 * (0: NULL), a size_t as a 32-bit word, an int64 as two words, a bool as 0/1.
 * Invoke decodes the record into an opdata on the stack (the kernels' params
 * structs, pointers resolved against the record) and runs the kernel.
 */
#include <stddef.h>
#include <string.h>

#include "runtime/ops.h"
#include "tflite/flexbuf.h"
#include "tinyarena/kernels.h"

/* Which kernel variant a record runs. */
typedef enum {
    P_NONE = 0,
    P_S8,
    P_S16,
    P_F32,
    P_S8_S16, /* softmax int8 -> int16 */
    P_COPY,
    P_S16_B32, /* int16 conv with int32 bias (or none) */
    P_S8_S8,   /* svdf with int8 time weights and state */
    P_S32,     /* int32 ADD, MUL, DIV */
} path_t;

/* Record kinds of the custom ops that have a kernel: TFLM's signal library
 * (the audio front end).  They import as TA_OP_CUSTOM named by their custom
 * code; their records carry these kinds, above every ta_op_kind and fixed,
 * so that records stay the same when builtin kinds are added. */
enum {
    K_SIGNAL = 0x100,
    K_SIG_WINDOW = K_SIGNAL,
    K_SIG_FFT_AUTO_SCALE,
    K_SIG_RFFT,
    K_SIG_ENERGY,
    K_SIG_FILTER_BANK,
    K_SIG_FB_SQRT,
    K_SIG_SPECTRAL_SUB,
    K_SIG_PCAN,
    K_SIG_FB_LOG,
    K_SIGNAL_END
};

static const char *const k_signal_names[K_SIGNAL_END - K_SIGNAL] = {
    "SignalWindow",     "SignalFftAutoScale",         "SignalRfft",
    "SignalEnergy",     "SignalFilterBank",           "SignalFilterBankSquareRoot",
    "SignalFilterBankSpectralSubtraction", "SignalPCAN", "SignalFilterBankLog"};

/* The record kind of an op: its ta_op_kind, or a K_SIG_* for the signal
 * custom ops (0 = TA_OP_OTHER for other custom ops: no kernel). */
static unsigned record_kind(const ta_op *op) {
    if (op->kind != TA_OP_CUSTOM) return (unsigned)op->kind;
    for (unsigned k = 0; op->custom_name && k < K_SIGNAL_END - K_SIGNAL; k++)
        if (!strcmp(op->custom_name, k_signal_names[k])) return K_SIGNAL + k;
    return (unsigned)TA_OP_OTHER;
}

/* A record kind's name for messages. */
static const char *kind_name(unsigned rk) {
    return rk >= K_SIGNAL && rk < K_SIGNAL_END ? k_signal_names[rk - K_SIGNAL]
           : rk < TA_OP_KIND_COUNT            ? ta_op_kind_str((ta_op_kind)rk)
                                              : "UNKNOWN";
}

typedef struct opdata {
    uint16_t kind;   /* ta_op_kind */
    uint8_t path;    /* path_t */
    uint8_t pad_;
    uint16_t n_in, n_out;
    uint32_t scratch_bytes;
    const int32_t *io; /* n_in input then n_out output tensor indices (-1 absent) */
    /* The member the kind uses; the record holds only its fields. */
    union {
        ta_conv_params conv;
        ta_dwconv_params dw;
        ta_fc_params fc;
        ta_addsub_params as;
        ta_mul_params mul;
        ta_pool_params pool;
        ta_mean_params mean;
        ta_softmax_params sm;
        struct {
            ta_lut_act_params p;
            size_t count;
        } act;
        struct {
            ta_pad_params p;
            uint8_t value[8]; /* the pad value bytes */
        } pad;
        ta_transpose_params tr;
        ta_slice_params sl;
        ta_concat_params cat;
        ta_resize_params rs;
        struct {
            ta_dtype in_type, out_type;
            float scale;
            int32_t in_zp, out_zp, mult, shift;
            size_t n;
        } q;
        struct {
            size_t bytes;
        } copy;
        ta_tconv_params tconv;
        struct {
            ta_leaky_relu_params p;
            size_t count;
        } leaky;
        struct {
            ta_hard_swish_params p;
            size_t count;
        } hswish;
        ta_batch_matmul_params bmm;
        ta_svdf_params svdf;
        ta_lstm_params lstm;
        ta_div_params div;
        struct {
            ta_broadcast shape;
            ta_dtype type;
        } mm; /* MINIMUM, MAXIMUM */
        struct {
            ta_dtype in_type, out_type;
            size_t n;
        } cast;
        /* the signal library */
        ta_signal_window_params sig_window;
        struct {
            size_t n;
        } sig_count; /* SignalFftAutoScale, SignalFilterBankSquareRoot */
        ta_signal_rfft_params sig_rfft;
        ta_signal_energy_params sig_energy;
        ta_signal_filter_bank_params sig_fb;
        ta_signal_spectral_subtraction_params sig_ss;
        ta_signal_pcan_params sig_pcan;
        ta_signal_filter_bank_log_params sig_log;
    } u;
} opdata;

/* Bytes of the union member a record kind uses (0 when it has no kernel). */
static size_t member_bytes(unsigned k) {
    const opdata *o = NULL;
    switch (k) {
    case TA_OP_DIV: return sizeof o->u.div;
    case TA_OP_MINIMUM:
    case TA_OP_MAXIMUM: return sizeof o->u.mm;
    case TA_OP_CAST: return sizeof o->u.cast;
    case K_SIG_WINDOW: return sizeof o->u.sig_window;
    case K_SIG_FFT_AUTO_SCALE:
    case K_SIG_FB_SQRT: return sizeof o->u.sig_count;
    case K_SIG_RFFT: return sizeof o->u.sig_rfft;
    case K_SIG_ENERGY: return sizeof o->u.sig_energy;
    case K_SIG_FILTER_BANK: return sizeof o->u.sig_fb;
    case K_SIG_SPECTRAL_SUB: return sizeof o->u.sig_ss;
    case K_SIG_PCAN: return sizeof o->u.sig_pcan;
    case K_SIG_FB_LOG: return sizeof o->u.sig_log;
    case TA_OP_CONV_2D: return sizeof o->u.conv;
    case TA_OP_DEPTHWISE_CONV_2D: return sizeof o->u.dw;
    case TA_OP_FULLY_CONNECTED: return sizeof o->u.fc;
    case TA_OP_ADD:
    case TA_OP_SUB: return sizeof o->u.as;
    case TA_OP_MUL: return sizeof o->u.mul;
    case TA_OP_AVERAGE_POOL_2D:
    case TA_OP_MAX_POOL_2D: return sizeof o->u.pool;
    case TA_OP_MEAN: return sizeof o->u.mean;
    case TA_OP_SOFTMAX: return sizeof o->u.sm;
    case TA_OP_LOGISTIC:
    case TA_OP_TANH: return sizeof o->u.act;
    case TA_OP_QUANTIZE:
    case TA_OP_DEQUANTIZE: return sizeof o->u.q;
    case TA_OP_RESHAPE:
    case TA_OP_SQUEEZE:
    case TA_OP_EXPAND_DIMS: return sizeof o->u.copy;
    case TA_OP_PAD:
    case TA_OP_PADV2: return sizeof o->u.pad;
    case TA_OP_TRANSPOSE: return sizeof o->u.tr;
    case TA_OP_CONCATENATION: return sizeof o->u.cat;
    case TA_OP_STRIDED_SLICE: return sizeof o->u.sl;
    case TA_OP_RESIZE_NEAREST_NEIGHBOR: return sizeof o->u.rs;
    case TA_OP_TRANSPOSE_CONV: return sizeof o->u.tconv;
    case TA_OP_LEAKY_RELU: return sizeof o->u.leaky;
    case TA_OP_HARD_SWISH: return sizeof o->u.hswish;
    case TA_OP_BATCH_MATMUL: return sizeof o->u.bmm;
    case TA_OP_SVDF: return sizeof o->u.svdf;
    case TA_OP_LSTM: return sizeof o->u.lstm;
    default: return 0;
    }
}

/* ---- the frozen record's params: one field list per union member -------- */

#define HDR_WORDS 4u

static uint32_t rd32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static void wr32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* Field types: how a field is stored in the host struct and in the record. */
enum { F_I32 = 1, F_F32, F_RAW4, F_BOOL, F_SIZE, F_I64, F_DTYPE, F_PTR, F_EDGE /* a nested struct's start or end: padding may precede it */ };

typedef struct {
    uint16_t off;  /* offsetof(opdata, field) */
    uint8_t type;  /* F_* */
    uint8_t count; /* array elements (1: a scalar) */
} field_t;

static size_t field_size(unsigned t) {
    switch (t) {
    case F_I32:
    case F_F32:
    case F_RAW4: return 4;
    case F_BOOL: return sizeof(bool);
    case F_SIZE: return sizeof(size_t);
    case F_I64: return sizeof(int64_t);
    case F_DTYPE: return sizeof(ta_dtype);
    case F_PTR: return sizeof(const void *);
    default: return 0; /* F_EDGE */
    }
}

static size_t field_align(unsigned t) {
    switch (t) {
    case F_I32: return _Alignof(int32_t);
    case F_F32: return _Alignof(float);
    case F_RAW4: return 1;
    case F_BOOL: return _Alignof(bool);
    case F_SIZE: return _Alignof(size_t);
    case F_I64: return _Alignof(int64_t);
    case F_DTYPE: return _Alignof(ta_dtype);
    case F_PTR: return _Alignof(const void *);
    default: return 1;
    }
}

#define F(m, t) {(uint16_t)offsetof(opdata, u.m), t, 1}
#define FA(m, t, n) {(uint16_t)offsetof(opdata, u.m), t, n}
#define D4(m) F(m.n, F_I32), F(m.h, F_I32), F(m.w, F_I32), F(m.c, F_I32)
#define REQUANT(m)                                                                                        \
    {(uint16_t)offsetof(opdata, u.m), F_EDGE, 0}, F(m.input_offset, F_I32), F(m.weights_offset, F_I32), F(m.output_offset, F_I32), F(m.mult, F_PTR), \
        F(m.shift, F_PTR), F(m.per_channel, F_BOOL), F(m.act_min, F_I32), F(m.act_max, F_I32),          \
        {(uint16_t)(offsetof(opdata, u.m) + sizeof(ta_requant)), F_EDGE, 0}
#define BCAST(m)                                                                                      \
    F(m.rank, F_I32), FA(m.in1, F_I32, TA_KERNEL_MAX_BROADCAST_RANK),                                \
        FA(m.in2, F_I32, TA_KERNEL_MAX_BROADCAST_RANK), FA(m.out, F_I32, TA_KERNEL_MAX_BROADCAST_RANK)

static const field_t k_conv[] = {
    D4(conv.input), D4(conv.filter), D4(conv.output), F(conv.stride_h, F_I32), F(conv.stride_w, F_I32),
    F(conv.dilation_h, F_I32), F(conv.dilation_w, F_I32), F(conv.pad_h, F_I32), F(conv.pad_w, F_I32),
    REQUANT(conv.q), F(conv.act_min, F_F32), F(conv.act_max, F_F32)};
static const field_t k_dw[] = {
    D4(dw.input), D4(dw.filter), D4(dw.output), F(dw.depth_multiplier, F_I32), F(dw.stride_h, F_I32),
    F(dw.stride_w, F_I32), F(dw.dilation_h, F_I32), F(dw.dilation_w, F_I32), F(dw.pad_h, F_I32),
    F(dw.pad_w, F_I32), REQUANT(dw.q), F(dw.act_min, F_F32), F(dw.act_max, F_F32)};
static const field_t k_fc[] = {F(fc.batches, F_I32), F(fc.accum_depth, F_I32), F(fc.out_depth, F_I32),
                               REQUANT(fc.q), F(fc.act_min, F_F32), F(fc.act_max, F_F32)};
static const field_t k_as[] = {
    BCAST(as.shape), F(as.input1_offset, F_I32), F(as.input2_offset, F_I32), F(as.output_offset, F_I32),
    F(as.left_shift, F_I32), F(as.input1_mult, F_I32), F(as.input1_shift, F_I32), F(as.input2_mult, F_I32),
    F(as.input2_shift, F_I32), F(as.output_mult, F_I32), F(as.output_shift, F_I32), F(as.act_min, F_I32),
    F(as.act_max, F_I32), F(as.f_act_min, F_F32), F(as.f_act_max, F_F32)};
static const field_t k_mul[] = {
    BCAST(mul.shape), F(mul.input1_offset, F_I32), F(mul.input2_offset, F_I32), F(mul.output_offset, F_I32),
    F(mul.output_mult, F_I32), F(mul.output_shift, F_I32), F(mul.act_min, F_I32), F(mul.act_max, F_I32),
    F(mul.f_act_min, F_F32), F(mul.f_act_max, F_F32)};
static const field_t k_pool[] = {
    D4(pool.input), D4(pool.output), F(pool.filter_h, F_I32), F(pool.filter_w, F_I32), F(pool.stride_h, F_I32),
    F(pool.stride_w, F_I32), F(pool.pad_h, F_I32), F(pool.pad_w, F_I32), F(pool.act_min, F_I32),
    F(pool.act_max, F_I32), F(pool.f_act_min, F_F32), F(pool.f_act_max, F_F32)};
static const field_t k_mean[] = {
    F(mean.rank, F_I32), FA(mean.in_shape, F_I32, TA_KERNEL_MAX_REDUCE_RANK),
    FA(mean.reduce, F_BOOL, TA_KERNEL_MAX_REDUCE_RANK), F(mean.same_quant, F_BOOL), F(mean.input_zp, F_I32),
    F(mean.output_zp, F_I32), F(mean.mult, F_I32), F(mean.shift, F_I32)};
static const field_t k_sm[] = {F(sm.outer, F_I32), F(sm.depth, F_I32), F(sm.input_mult, F_I32),
                               F(sm.input_left_shift, F_I32), F(sm.diff_min, F_I32), F(sm.beta, F_F32)};
static const field_t k_act[] = {F(act.p.input_zp, F_I32), F(act.p.input_mult, F_I32),
                                F(act.p.input_left_shift, F_I32), F(act.p.input_range_radius, F_I32),
                                F(act.count, F_SIZE)};
static const field_t k_pad[] = {
    F(pad.p.rank, F_I32), FA(pad.p.in_shape, F_I32, TA_KERNEL_MAX_PAD_RANK),
    FA(pad.p.before, F_I32, TA_KERNEL_MAX_PAD_RANK), FA(pad.p.after, F_I32, TA_KERNEL_MAX_PAD_RANK),
    F(pad.p.elem_size, F_SIZE), FA(pad.value, F_RAW4, 2)};
static const field_t k_tr[] = {F(tr.rank, F_I32), FA(tr.in_shape, F_I32, TA_KERNEL_MAX_TRANSPOSE_RANK),
                               FA(tr.perm, F_I32, TA_KERNEL_MAX_TRANSPOSE_RANK), F(tr.elem_size, F_SIZE)};
static const field_t k_cat[] = {F(cat.n_inputs, F_I32), F(cat.outer, F_I64), F(cat.copy_bytes, F_PTR)};
static const field_t k_sl[] = {
    F(sl.rank, F_I32), FA(sl.in_shape, F_I32, TA_KERNEL_MAX_SLICE_RANK), FA(sl.start, F_I32, TA_KERNEL_MAX_SLICE_RANK),
    FA(sl.stop, F_I32, TA_KERNEL_MAX_SLICE_RANK), FA(sl.stride, F_I32, TA_KERNEL_MAX_SLICE_RANK),
    F(sl.elem_size, F_SIZE)};
static const field_t k_rs[] = {D4(rs.input), F(rs.out_h, F_I32), F(rs.out_w, F_I32), F(rs.align_corners, F_BOOL),
                               F(rs.half_pixel_centers, F_BOOL), F(rs.elem_size, F_SIZE)};
static const field_t k_q[] = {F(q.in_type, F_DTYPE), F(q.out_type, F_DTYPE), F(q.scale, F_F32), F(q.in_zp, F_I32),
                              F(q.out_zp, F_I32), F(q.mult, F_I32), F(q.shift, F_I32), F(q.n, F_SIZE)};
static const field_t k_copy[] = {F(copy.bytes, F_SIZE)};
static const field_t k_tconv[] = {D4(tconv.input),        D4(tconv.filter),        D4(tconv.output),
                                  F(tconv.stride_h, F_I32), F(tconv.stride_w, F_I32), F(tconv.pad_h, F_I32),
                                  F(tconv.pad_w, F_I32),    REQUANT(tconv.q)};
static const field_t k_leaky[] = {F(leaky.p.input_zp, F_I32),       F(leaky.p.output_zp, F_I32),
                                  F(leaky.p.alpha_mult, F_I32),     F(leaky.p.alpha_shift, F_I32),
                                  F(leaky.p.identity_mult, F_I32),  F(leaky.p.identity_shift, F_I32),
                                  F(leaky.p.alpha, F_F32),          F(leaky.count, F_SIZE)};
static const field_t k_hswish[] = {F(hswish.p.input_zp, F_I32),      F(hswish.p.output_zp, F_I32),
                                   F(hswish.p.output_mult16, F_I32), F(hswish.p.output_exp, F_I32),
                                   F(hswish.p.reluish_mult16, F_I32), F(hswish.p.reluish_exp, F_I32),
                                   F(hswish.count, F_SIZE)};
static const field_t k_bmm[] = {FA(bmm.lhs, F_I32, 5),       FA(bmm.rhs, F_I32, 5),      F(bmm.adj_x, F_BOOL),
                                F(bmm.adj_y, F_BOOL),        F(bmm.lhs_offset, F_I32),   F(bmm.rhs_offset, F_I32),
                                F(bmm.output_offset, F_I32), F(bmm.mult, F_I32),         F(bmm.shift, F_I32)};
static const field_t k_svdf[] = {F(svdf.batch, F_I32),     F(svdf.input_size, F_I32), F(svdf.n_filter, F_I32),
                                 F(svdf.n_memory, F_I32),  F(svdf.rank, F_I32),       F(svdf.input_zp, F_I32),
                                 F(svdf.state_zp, F_I32),  F(svdf.output_zp, F_I32),  F(svdf.mult1, F_I32),
                                 F(svdf.shift1, F_I32),    F(svdf.mult2, F_I32),      F(svdf.shift2, F_I32)};
/* ta_lstm_fc is four int32s, so each gate array is 16 consecutive words */
static const field_t k_lstm[] = {F(lstm.time_major, F_BOOL),    F(lstm.batch, F_I32),         F(lstm.time, F_I32),
                                 F(lstm.input_dim, F_I32),      F(lstm.state_dim, F_I32),     FA(lstm.in_fc, F_I32, 16),
                                 FA(lstm.rec_fc, F_I32, 16),    F(lstm.cell_act, F_I32),      F(lstm.cell_scale_power, F_I32),
                                 F(lstm.cell_clip, F_I32),      F(lstm.fc_mult, F_I32),       F(lstm.fc_shift, F_I32),
                                 F(lstm.ic_mult, F_I32),        F(lstm.ic_shift, F_I32),      F(lstm.h_mult, F_I32),
                                 F(lstm.h_shift, F_I32),        F(lstm.h_zp, F_I32)};

static const field_t k_div[] = {BCAST(div.shape), F(div.act_min, F_I32), F(div.act_max, F_I32)};
static const field_t k_mm[] = {BCAST(mm.shape), F(mm.type, F_DTYPE)};
static const field_t k_cast[] = {F(cast.in_type, F_DTYPE), F(cast.out_type, F_DTYPE), F(cast.n, F_SIZE)};
static const field_t k_sig_window[] = {F(sig_window.size, F_I32), F(sig_window.window, F_I32),
                                       F(sig_window.shift, F_I32)};
static const field_t k_sig_count[] = {F(sig_count.n, F_SIZE)};
static const field_t k_sig_rfft[] = {F(sig_rfft.fft_length, F_I32), F(sig_rfft.input_length, F_I32),
                                     F(sig_rfft.frames, F_I32), F(sig_rfft.twiddles, F_PTR)};
static const field_t k_sig_energy[] = {F(sig_energy.count, F_I32), F(sig_energy.start, F_I32),
                                       F(sig_energy.end, F_I32)};
static const field_t k_sig_fb[] = {F(sig_fb.num_channels, F_I32), F(sig_fb.input_size, F_I32),
                                   F(sig_fb.weights_size, F_I32)};
/* num_channels first: ta__op_state_bytes reads it from the record */
static const field_t k_sig_ss[] = {F(sig_ss.num_channels, F_I32),
                                   F(sig_ss.smoothing, F_I32),
                                   F(sig_ss.one_minus_smoothing, F_I32),
                                   F(sig_ss.alternate_smoothing, F_I32),
                                   F(sig_ss.alternate_one_minus_smoothing, F_I32),
                                   F(sig_ss.min_signal_remaining, F_I32),
                                   F(sig_ss.smoothing_bits, F_I32),
                                   F(sig_ss.spectral_subtraction_bits, F_I32),
                                   F(sig_ss.clamping, F_BOOL)};
static const field_t k_sig_pcan[] = {F(sig_pcan.num_channels, F_I32), F(sig_pcan.snr_shift, F_I32),
                                     F(sig_pcan.lut_size, F_I32)};
static const field_t k_sig_log[] = {F(sig_log.num_channels, F_I32), F(sig_log.input_correction_bits, F_I32),
                                    F(sig_log.output_scale, F_I32)};

#undef F
#undef FA
#undef D4
#undef REQUANT
#undef BCAST

typedef struct {
    const field_t *f;
    size_t n;     /* fields */
    size_t words; /* record words they take */
} field_set;

#define SET(a) set_of(a, sizeof a / sizeof a[0])
static field_set set_of(const field_t *f, size_t n) {
    field_set fs = {f, n, 0};
    for (size_t i = 0; i < n; i++) fs.words += (size_t)f[i].count * (f[i].type == F_I64 ? 2u : 1u);
    return fs;
}

/* The field list of a record kind's union member (empty for kinds without
 * a kernel). */
static field_set fields_of(unsigned k) {
    switch (k) {
    case TA_OP_DIV: return SET(k_div);
    case TA_OP_MINIMUM:
    case TA_OP_MAXIMUM: return SET(k_mm);
    case TA_OP_CAST: return SET(k_cast);
    case K_SIG_WINDOW: return SET(k_sig_window);
    case K_SIG_FFT_AUTO_SCALE:
    case K_SIG_FB_SQRT: return SET(k_sig_count);
    case K_SIG_RFFT: return SET(k_sig_rfft);
    case K_SIG_ENERGY: return SET(k_sig_energy);
    case K_SIG_FILTER_BANK: return SET(k_sig_fb);
    case K_SIG_SPECTRAL_SUB: return SET(k_sig_ss);
    case K_SIG_PCAN: return SET(k_sig_pcan);
    case K_SIG_FB_LOG: return SET(k_sig_log);
    case TA_OP_CONV_2D: return SET(k_conv);
    case TA_OP_DEPTHWISE_CONV_2D: return SET(k_dw);
    case TA_OP_FULLY_CONNECTED: return SET(k_fc);
    case TA_OP_ADD:
    case TA_OP_SUB: return SET(k_as);
    case TA_OP_MUL: return SET(k_mul);
    case TA_OP_AVERAGE_POOL_2D:
    case TA_OP_MAX_POOL_2D: return SET(k_pool);
    case TA_OP_MEAN: return SET(k_mean);
    case TA_OP_SOFTMAX: return SET(k_sm);
    case TA_OP_LOGISTIC:
    case TA_OP_TANH: return SET(k_act);
    case TA_OP_QUANTIZE:
    case TA_OP_DEQUANTIZE: return SET(k_q);
    case TA_OP_RESHAPE:
    case TA_OP_SQUEEZE:
    case TA_OP_EXPAND_DIMS: return SET(k_copy);
    case TA_OP_PAD:
    case TA_OP_PADV2: return SET(k_pad);
    case TA_OP_TRANSPOSE: return SET(k_tr);
    case TA_OP_CONCATENATION: return SET(k_cat);
    case TA_OP_STRIDED_SLICE: return SET(k_sl);
    case TA_OP_RESIZE_NEAREST_NEIGHBOR: return SET(k_rs);
    case TA_OP_TRANSPOSE_CONV: return SET(k_tconv);
    case TA_OP_LEAKY_RELU: return SET(k_leaky);
    case TA_OP_HARD_SWISH: return SET(k_hswish);
    case TA_OP_BATCH_MATMUL: return SET(k_bmm);
    case TA_OP_SVDF: return SET(k_svdf);
    case TA_OP_LSTM: return SET(k_lstm);
    default: return set_of(NULL, 0);
    }
}
#undef SET

/* Writes od's fields as record words at out; pointers become offsets from
 * rec (they must point into [rec, rec + rec_bytes)).  False when a value
 * does not fit its word. */
static bool encode(const field_set *fs, const opdata *od, const uint8_t *rec, size_t rec_bytes, uint8_t *out) {
    const uint8_t *base = (const uint8_t *)od;
    for (size_t i = 0; i < fs->n; i++) {
        const field_t *f = &fs->f[i];
        const size_t es = field_size(f->type);
        for (unsigned k = 0; k < f->count; k++) {
            const uint8_t *src = base + f->off + k * es;
            uint32_t w = 0;
            switch (f->type) {
            case F_I32:
            case F_F32:
            case F_RAW4: memcpy(&w, src, 4); break;
            case F_BOOL: {
                bool b;
                memcpy(&b, src, sizeof b);
                w = b ? 1u : 0u;
                break;
            }
            case F_SIZE: {
                size_t v;
                memcpy(&v, src, sizeof v);
                if (v > UINT32_MAX) return false;
                w = (uint32_t)v;
                break;
            }
            case F_I64: {
                int64_t v;
                memcpy(&v, src, sizeof v);
                wr32(out, (uint32_t)((uint64_t)v & 0xFFFFFFFFu));
                out += 4;
                w = (uint32_t)((uint64_t)v >> 32);
                break;
            }
            case F_DTYPE: {
                ta_dtype d;
                memcpy(&d, src, sizeof d);
                w = (uint32_t)d;
                break;
            }
            case F_PTR: {
                const uint8_t *p;
                memcpy(&p, src, sizeof p);
                if (p && (p < rec || p >= rec + rec_bytes)) return false;
                w = p ? (uint32_t)(p - rec) : 0u;
                break;
            }
            default: return false;
            }
            wr32(out, w);
            out += 4;
        }
    }
    return true;
}

/* The inverse: a record into an opdata (header, io, the kind's member). */
static void decode(const uint8_t *rec, opdata *od) {
    memset(od, 0, sizeof *od);
    const uint32_t w0 = rd32(rec), w1 = rd32(rec + 4);
    od->kind = (uint16_t)(w0 & 0xFFFFu);
    od->path = (uint8_t)(w0 >> 16);
    od->n_in = (uint16_t)(w1 & 0xFFFFu);
    od->n_out = (uint16_t)(w1 >> 16);
    od->scratch_bytes = rd32(rec + 8);
    od->io = (const int32_t *)(const void *)(rec + 4 * HDR_WORDS);
    const field_set fs = fields_of(od->kind);
    const uint8_t *in = rec + 4 * (HDR_WORDS + (size_t)od->n_in + od->n_out);
    uint8_t *base = (uint8_t *)od;
    for (size_t i = 0; i < fs.n; i++) {
        const field_t *f = &fs.f[i];
        const size_t es = field_size(f->type);
        for (unsigned k = 0; k < f->count; k++) {
            uint8_t *dst = base + f->off + k * es;
            const uint32_t w = rd32(in);
            in += 4;
            switch (f->type) {
            case F_I32:
            case F_F32:
            case F_RAW4: memcpy(dst, &w, 4); break;
            case F_BOOL: {
                bool b = w != 0;
                memcpy(dst, &b, sizeof b);
                break;
            }
            case F_SIZE: {
                size_t v = w;
                memcpy(dst, &v, sizeof v);
                break;
            }
            case F_I64: {
                uint64_t v = (uint64_t)w | (uint64_t)rd32(in) << 32;
                in += 4;
                int64_t sv = (int64_t)v;
                memcpy(dst, &sv, sizeof sv);
                break;
            }
            case F_DTYPE: {
                ta_dtype d = (ta_dtype)w;
                memcpy(dst, &d, sizeof d);
                break;
            }
            case F_PTR: {
                const uint8_t *p = w ? rec + w : NULL;
                memcpy(dst, &p, sizeof p);
                break;
            }
            default: break;
            }
        }
    }
}

/* Where the compiler can say which bytes are padding (GCC's
 * __builtin_clear_padding), every other byte of the member must belong to a
 * described field.  Returns the first undescribed byte, or SIZE_MAX (also
 * when the builtin is missing). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_clear_padding)
#define TA_HAVE_CLEAR_PADDING 1
#endif
#endif
static size_t undescribed_byte(unsigned k, const field_set *fs) {
#ifdef TA_HAVE_CLEAR_PADDING
    opdata od;
    memset(&od, 0xFF, sizeof od);
    switch (k) {
    case TA_OP_DIV: __builtin_clear_padding(&od.u.div); break;
    case TA_OP_MINIMUM:
    case TA_OP_MAXIMUM: __builtin_clear_padding(&od.u.mm); break;
    case TA_OP_CAST: __builtin_clear_padding(&od.u.cast); break;
    case K_SIG_WINDOW: __builtin_clear_padding(&od.u.sig_window); break;
    case K_SIG_FFT_AUTO_SCALE:
    case K_SIG_FB_SQRT: __builtin_clear_padding(&od.u.sig_count); break;
    case K_SIG_RFFT: __builtin_clear_padding(&od.u.sig_rfft); break;
    case K_SIG_ENERGY: __builtin_clear_padding(&od.u.sig_energy); break;
    case K_SIG_FILTER_BANK: __builtin_clear_padding(&od.u.sig_fb); break;
    case K_SIG_SPECTRAL_SUB: __builtin_clear_padding(&od.u.sig_ss); break;
    case K_SIG_PCAN: __builtin_clear_padding(&od.u.sig_pcan); break;
    case K_SIG_FB_LOG: __builtin_clear_padding(&od.u.sig_log); break;
    case TA_OP_CONV_2D: __builtin_clear_padding(&od.u.conv); break;
    case TA_OP_DEPTHWISE_CONV_2D: __builtin_clear_padding(&od.u.dw); break;
    case TA_OP_FULLY_CONNECTED: __builtin_clear_padding(&od.u.fc); break;
    case TA_OP_ADD:
    case TA_OP_SUB: __builtin_clear_padding(&od.u.as); break;
    case TA_OP_MUL: __builtin_clear_padding(&od.u.mul); break;
    case TA_OP_AVERAGE_POOL_2D:
    case TA_OP_MAX_POOL_2D: __builtin_clear_padding(&od.u.pool); break;
    case TA_OP_MEAN: __builtin_clear_padding(&od.u.mean); break;
    case TA_OP_SOFTMAX: __builtin_clear_padding(&od.u.sm); break;
    case TA_OP_LOGISTIC:
    case TA_OP_TANH: __builtin_clear_padding(&od.u.act); break;
    case TA_OP_QUANTIZE:
    case TA_OP_DEQUANTIZE: __builtin_clear_padding(&od.u.q); break;
    case TA_OP_RESHAPE:
    case TA_OP_SQUEEZE:
    case TA_OP_EXPAND_DIMS: __builtin_clear_padding(&od.u.copy); break;
    case TA_OP_PAD:
    case TA_OP_PADV2: __builtin_clear_padding(&od.u.pad); break;
    case TA_OP_TRANSPOSE: __builtin_clear_padding(&od.u.tr); break;
    case TA_OP_CONCATENATION: __builtin_clear_padding(&od.u.cat); break;
    case TA_OP_STRIDED_SLICE: __builtin_clear_padding(&od.u.sl); break;
    case TA_OP_RESIZE_NEAREST_NEIGHBOR: __builtin_clear_padding(&od.u.rs); break;
    case TA_OP_TRANSPOSE_CONV: __builtin_clear_padding(&od.u.tconv); break;
    case TA_OP_LEAKY_RELU: __builtin_clear_padding(&od.u.leaky); break;
    case TA_OP_HARD_SWISH: __builtin_clear_padding(&od.u.hswish); break;
    case TA_OP_BATCH_MATMUL: __builtin_clear_padding(&od.u.bmm); break;
    case TA_OP_SVDF: __builtin_clear_padding(&od.u.svdf); break;
    case TA_OP_LSTM: __builtin_clear_padding(&od.u.lstm); break;
    default: return SIZE_MAX;
    }
    const unsigned char *bytes = (const unsigned char *)&od;
    for (size_t i = 0; i < fs->n; i++) /* described bytes: zero them too */
        memset((unsigned char *)&od + fs->f[i].off, 0, field_size(fs->f[i].type) * fs->f[i].count);
    const size_t end = offsetof(opdata, u) + member_bytes(k);
    for (size_t i = offsetof(opdata, u); i < end; i++)
        if (bytes[i]) return i;
#else
    (void)k;
    (void)fs;
#endif
    return SIZE_MAX;
}

/* C places each member at the first offset past the previous one that its
 * alignment allows, so a described member must sit exactly there -- any
 * other gap is a member the list forgot.  (A forgotten member small enough
 * to hide in the padding before the next one is what undescribed_byte
 * finds.) */
ta_status ta__op_layout_check(ta_diag *diag) {
    for (unsigned k = 0; k < K_SIGNAL_END; k = k + 1 == TA_OP_KIND_COUNT ? K_SIGNAL : k + 1) {
        const field_set fs = fields_of(k);
        if (!fs.n) continue;
        const char *name = kind_name(k);
        const size_t end = offsetof(opdata, u) + member_bytes(k);
        size_t at = offsetof(opdata, u), max_align = 1;
        for (size_t i = 0; i < fs.n; i++) {
            const field_t *f = &fs.f[i];
            const size_t a = f->type == F_EDGE ? _Alignof(ta_requant) : field_align(f->type);
            const size_t want = (at + a - 1) / a * a;
            if (a > max_align) max_align = a;
            if (f->off != want)
                return ta_diag_set(diag, TA_E_MALFORMED, "%s record: field %zu is at byte %u, expected %zu (a member is not described)",
                                   name, i, f->off, want);
            at = f->off + field_size(f->type) * f->count;
        }
        if ((at + max_align - 1) / max_align * max_align != end)
            return ta_diag_set(diag, TA_E_MALFORMED, "%s record: bytes %zu..%zu are not described", name, at, end);
        const size_t u = undescribed_byte(k, &fs);
        if (u != SIZE_MAX)
            return ta_diag_set(diag, TA_E_MALFORMED, "%s record: byte %zu holds a member that is not described", name, u);
    }
    return TA_OK;
}

/* ---- carving ------------------------------------------------------------ */

typedef struct {
    uint8_t *base; /* NULL: count only */
    size_t cap, used;
} carve_t;

static void *take(carve_t *c, size_t bytes) {
    size_t start = (c->used + 7u) & ~(size_t)7u;
    c->used = start + bytes;
    if (!c->base || c->used > c->cap) return NULL;
    return c->base + start;
}

/* ---- prepare context ---------------------------------------------------- */

typedef struct {
    const ta_graph *g;
    uint32_t sg, index;
    const ta_op *op;
    ta_diag *diag;
    carve_t carve;
    opdata od;         /* built here, copied into the block at the end */
    size_t scratch;
    size_t state;      /* bytes of state the op keeps between invokes */
} ctx_t;

static const char *kname(const ctx_t *c) {
    return c->op->kind == TA_OP_CUSTOM && c->op->custom_name ? c->op->custom_name : ta_op_kind_str(c->op->kind);
}

static ta_status fail(const ctx_t *c, ta_status st, const char *what) {
    return ta_diag_set(c->diag, st, "op %u (%s): %s", c->index, kname(c), what);
}

static ta_status fail_type(const ctx_t *c, const char *role, ta_dtype t) {
    return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): %s type %s is not supported",
                       c->index, kname(c), role, ta_dtype_str(t));
}

static const ta_tensor *in_t(const ctx_t *c, uint32_t k) {
    if (k >= c->op->n_inputs || c->op->inputs[k] < 0) return NULL;
    return ta_graph_tensor(c->g, c->sg, c->op->inputs[k]);
}

static const ta_tensor *out_t(const ctx_t *c, uint32_t k) {
    if (k >= c->op->n_outputs || c->op->outputs[k] < 0) return NULL;
    return ta_graph_tensor(c->g, c->sg, c->op->outputs[k]);
}

static float scale_of(const ta_tensor *t) { return t->quant.count && t->quant.scale ? t->quant.scale[0] : 0.0f; }
static int32_t zp_of(const ta_tensor *t) {
    return t->quant.count && t->quant.zero_point ? (int32_t)t->quant.zero_point[0] : 0;
}
static int64_t elems(const ta_tensor *t) { return (int64_t)ta_tensor_elements(t); }

static ta_status need_io(ctx_t *c, uint32_t min_in, uint32_t max_in, uint32_t n_out) {
    if (c->op->n_inputs < min_in || c->op->n_inputs > max_in || c->op->n_outputs != n_out)
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): expects %u..%u inputs and %u outputs, has %u and %u",
                           c->index, kname(c), min_in, max_in, n_out, c->op->n_inputs, c->op->n_outputs);
    for (uint32_t k = 0; k < min_in; k++)
        if (!in_t(c, k)) return fail(c, TA_E_MALFORMED, "a required input is missing");
    for (uint32_t k = 0; k < n_out; k++)
        if (!out_t(c, k)) return fail(c, TA_E_MALFORMED, "an output is missing");
    return TA_OK;
}

/* The bias of a conv, depthwise conv, transpose conv or fully connected op:
 * every kernel path (int8, int16, float32) reads one bias element per output
 * channel, so prepare proves the length, not just the type. */
static ta_status bias_len(const ctx_t *c, const ta_tensor *b, int32_t channels) {
    if (b && elems(b) != (int64_t)channels)
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): bias tensor %d has %lld elements for %d output channels",
                           c->index, kname(c), b->index, (long long)elems(b), channels);
    return TA_OK;
}

/* The int16 kernels (CONV_2D, TRANSPOSE_CONV, BATCH_MATMUL) accumulate in
 * int64 and requantise with ta_q_mul64, which multiplies the accumulator
 * by a 16-bit multiplier: |acc| must stay below 2^47.  acc is the bias
 * (int64 or int32 data, read here) plus `depth` products of at most
 * 2^prod_bits each. */
static ta_status acc64_ok(const ctx_t *c, const ta_tensor *b, int64_t depth, int prod_bits) {
    const int64_t limit = INT64_C(1) << 47;
    if (depth < 0 || depth > (limit >> prod_bits)) return fail(c, TA_E_UNSUPPORTED, "accumulation too deep for the int64 path");
    int64_t max_bias = 0;
    if (b && b->data) {
        const size_t es = b->dtype == TA_DTYPE_INT64 ? 8 : 4;
        const size_t n = b->data_bytes / es;
        for (size_t i = 0; i < n; i++) {
            int64_t v;
            if (es == 8) {
                memcpy(&v, (const uint8_t *)b->data + 8 * i, 8);
            } else {
                int32_t v32;
                memcpy(&v32, (const uint8_t *)b->data + 4 * i, 4);
                v = v32;
            }
            if (v == INT64_MIN) return fail(c, TA_E_UNSUPPORTED, "a bias value overflows the int64 path");
            if (v < 0) v = -v;
            if (v > max_bias) max_bias = v;
        }
    } else if (b) {
        return fail(c, TA_E_UNSUPPORTED, "int16 bias must be constant");
    }
    if (max_bias > limit - (depth << prod_bits)) return fail(c, TA_E_UNSUPPORTED, "a bias value overflows the int64 path");
    return TA_OK;
}

/* Checks every operand before any kind-specific prepare (issue 9):
 *  - no op writes a constant: its bytes are the model's, in flash on a target;
 *  - a constant holds at least the bytes its shape says the kernel reads
 *    (the importer guarantees it; a graph built through graph.h may not);
 *  - every shape, with 0 dims counted as 1, has at most INT32_MAX elements.
 *    Kernels index with int32, and prepare multiplies subsets of dims in
 *    int64: with this bound no such product can overflow;
 *  - no dim is -1 (unknown: the planner sizes it as 1, but the kinds'
 *    prepares read dims as extents) and no output has a 0 dim (the runtime
 *    gives zero-size tensors no bytes, and kernels refuse a NULL buffer);
 *  - quantisation: every scale is finite and >= 0 (prepares divide by them
 *    and convert ratios to integers), every zero point fits the tensor's
 *    type (int8 -128..127, uint8 0..255, int16 -32768..32767, others int32
 *    without INT32_MIN): kernels add and negate them in int32. */
static ta_status operands_ok(const ctx_t *c) {
    for (uint32_t k = 0; k < c->op->n_inputs + c->op->n_outputs; k++) {
        const bool is_out = k >= c->op->n_inputs;
        const int32_t idx = is_out ? c->op->outputs[k - c->op->n_inputs] : c->op->inputs[k];
        const ta_tensor *t = idx >= 0 ? ta_graph_tensor(c->g, c->sg, idx) : NULL;
        if (!t) continue;
        if (is_out && (t->flags & TA_TENSOR_CONST || t->data))
            return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): output tensor %d '%s' is a constant (would write into the model)",
                               c->index, kname(c), idx, t->name);
        for (uint32_t q = 0; q < t->quant.count; q++) {
            const float sc = t->quant.scale ? t->quant.scale[q] : 0.0f;
            const int64_t zp = t->quant.zero_point ? t->quant.zero_point[q] : 0;
            const int64_t lo = t->dtype == TA_DTYPE_INT8 ? -128 : t->dtype == TA_DTYPE_UINT8 ? 0 : t->dtype == TA_DTYPE_INT16 ? -32768 : -INT32_MAX;
            const int64_t hi = t->dtype == TA_DTYPE_INT8 ? 127 : t->dtype == TA_DTYPE_UINT8 ? 255 : t->dtype == TA_DTYPE_INT16 ? 32767 : INT32_MAX;
            if (!(sc >= 0.0f && sc <= 3.4e38f))
                return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): tensor %d has a negative, infinite or NaN scale",
                                   c->index, kname(c), idx);
            if (zp < lo || zp > hi)
                return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): tensor %d has zero point %lld, outside its %s range",
                                   c->index, kname(c), idx, (long long)zp, ta_dtype_str(t->dtype));
        }
        if (t->data && ta_dtype_size(t->dtype) && t->data_bytes < t->bytes)
            return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): constant tensor %d holds %zu bytes, its shape needs %zu",
                               c->index, kname(c), idx, t->data_bytes, t->bytes);
        int64_t n = 1;
        for (int32_t d = 0; d < t->rank; d++) {
            if (t->shape[d] < 0)
                return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): tensor %d has an unknown (-1) dim",
                                   c->index, kname(c), idx);
            if (is_out && t->shape[d] == 0)
                return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): output tensor %d has no elements (a 0 dim)",
                                   c->index, kname(c), idx);
            n *= t->shape[d] > 1 ? t->shape[d] : 1;
            if (n > INT32_MAX)
                return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): tensor %d has more than 2^31-1 elements",
                                   c->index, kname(c), idx);
        }
    }
    return TA_OK;
}

static ta_status dims4(const ctx_t *c, const ta_tensor *t, ta_dims4 *d) {
    if (t->rank != 4) return fail(c, TA_E_MALFORMED, "expects 4-D tensors");
    d->n = t->shape[0];
    d->h = t->shape[1];
    d->w = t->shape[2];
    d->c = t->shape[3];
    if (d->n <= 0 || d->h <= 0 || d->w <= 0 || d->c <= 0) return fail(c, TA_E_MALFORMED, "a tensor has a non-positive dim");
    return TA_OK;
}

/* Constant int32 operand (axis, perm, paddings...): data and element count. */
static ta_status const_i32(const ctx_t *c, const ta_tensor *t, const int32_t **v, int64_t *n) {
    if (!t || !t->data) return fail(c, TA_E_UNSUPPORTED, "a shape/axis operand is not constant");
    if (t->dtype != TA_DTYPE_INT32) return fail_type(c, "index operand", t->dtype);
    *n = elems(t);
    if ((size_t)*n * 4u > t->data_bytes) return fail(c, TA_E_MALFORMED, "constant operand is shorter than its shape");
    if (((uintptr_t)t->data & 3u) != 0) return fail(c, TA_E_MALFORMED, "constant operand is misaligned");
    *v = (const int32_t *)t->data;
    return TA_OK;
}

/* Per-channel requantisation table for conv/depthwise/FC (per_channel or broadcast). */
static ta_status requant_table(ctx_t *c, const ta_tensor *in, const ta_tensor *w, const ta_tensor *out,
                               int32_t channels, bool fc_per_tensor, ta_requant *q) {
    if (!w->quant.count || !w->quant.scale) return fail(c, TA_E_UNSUPPORTED, "weights are not quantised");
    if (w->quant.count != 1 && w->quant.count != (uint32_t)channels)
        return fail(c, TA_E_MALFORMED, "weight scales do not match the output channels");
    q->input_offset = -zp_of(in);
    q->output_offset = zp_of(out);
    q->weights_offset = -zp_of(w);
    if (!(scale_of(out) > 0.0f)) return fail(c, TA_E_MALFORMED, "output scale is not positive");
    ta_status st = ta_quant_activation_range(c->op->opt.activation, scale_of(out), zp_of(out), out->dtype,
                                             &q->act_min, &q->act_max);
    if (st) return fail(c, st, "unsupported fused activation");
    /* Kernels shift left by a positive shift in int32: above 30 is undefined
     * (and no real model's ratio comes near 2^30).  Checked in the size
     * query too, not only when the tables are filled. */
    if (fc_per_tensor) {
        int32_t *m = take(&c->carve, sizeof(int32_t) + 1);
        q->per_channel = false;
        int32_t mult, sh;
        ta_quant_multiplier(ta_quant_fc_real_multiplier(scale_of(in), w->quant.scale[0], scale_of(out)), &mult, &sh);
        if (sh > 30) return fail(c, TA_E_UNSUPPORTED, "requantisation ratio out of range");
        if (m) {
            m[0] = mult;
            int8_t *s8 = (int8_t *)(m + 1);
            *s8 = (int8_t)sh;
            q->mult = &m[0];
            q->shift = s8;
        }
        return TA_OK;
    }
    for (int32_t k = 0; k < channels; k++) {
        int32_t mult, sh;
        ta_quant_multiplier((double)scale_of(in) * (double)w->quant.scale[w->quant.count == 1 ? 0 : k] / (double)scale_of(out),
                            &mult, &sh);
        if (sh > 30) return fail(c, TA_E_UNSUPPORTED, "requantisation ratio out of range");
    }
    int32_t *m = take(&c->carve, (size_t)channels * sizeof(int32_t));
    int8_t *s = take(&c->carve, (size_t)channels);
    q->per_channel = true;
    if (m && s) {
        st = ta_quant_conv_multipliers(scale_of(in), w->quant.scale, w->quant.count, scale_of(out),
                                       (uint32_t)channels, m, s);
        if (st) return fail(c, st, "cannot derive multipliers");
        q->mult = m;
        q->shift = s;
    }
    return TA_OK;
}

static ta_status float_act(ctx_t *c, float *lo, float *hi) {
    ta_status st = ta_float_activation_range(c->op->opt.activation, lo, hi);
    return st ? fail(c, st, "unsupported fused activation") : TA_OK;
}

/* int8 input with weights (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
 * TRANSPOSE_CONV): int8 weights (`role` in messages) and output, int32 bias
 * or none; P_S8 and the requantisation table. */
static ta_status prep_s8_weights(ctx_t *c, const ta_tensor *in, const ta_tensor *w, const ta_tensor *b,
                                 const ta_tensor *out, const char *role, int32_t channels, bool fc_per_tensor,
                                 ta_requant *q) {
    if (w->dtype != TA_DTYPE_INT8) return fail_type(c, role, w->dtype);
    if (out->dtype != TA_DTYPE_INT8) return fail_type(c, "output", out->dtype);
    if (b && b->dtype != TA_DTYPE_INT32) return fail_type(c, "bias", b->dtype);
    c->od.path = P_S8;
    return requant_table(c, in, w, out, channels, fc_per_tensor, q);
}

/* float32 input with weights (CONV_2D, FULLY_CONNECTED): float32 weights and
 * output, float32 bias when b is given; P_F32 and the activation range. */
static ta_status prep_f32_weights(ctx_t *c, const ta_tensor *w, const ta_tensor *b, const ta_tensor *out,
                                  const char *role, float *lo, float *hi) {
    if (w->dtype != TA_DTYPE_FLOAT32) return fail_type(c, role, w->dtype);
    if (out->dtype != TA_DTYPE_FLOAT32) return fail_type(c, "output", out->dtype);
    if (b && b->dtype != TA_DTYPE_FLOAT32) return fail_type(c, "bias", b->dtype);
    c->od.path = P_F32;
    return float_act(c, lo, hi);
}

/* ---- per-kind prepare --------------------------------------------------- */

/* int16 activations x int8 weights (CONV_2D, TRANSPOSE_CONV): symmetric
 * int16 input and output, per-channel multipliers whose shifts fit
 * TFLM's int64 requantisation (<= 7); bias int64, int32 (conv only) or none.
 * Sets the path (P_S16 / P_S16_B32). */
static ta_status prep_s16x8(ctx_t *c, const ta_tensor *in, const ta_tensor *w, const ta_tensor *b,
                            const ta_tensor *out, ta_requant *q, int32_t channels, bool allow_b32) {
    if (w->dtype != TA_DTYPE_INT8) return fail_type(c, "filter", w->dtype);
    if (out->dtype != TA_DTYPE_INT16) return fail_type(c, "output", out->dtype);
    if (zp_of(in) != 0 || zp_of(out) != 0) return fail(c, TA_E_UNSUPPORTED, "int16 input and output need zero point 0");
    if (b && b->dtype != TA_DTYPE_INT64 && !(allow_b32 && b->dtype == TA_DTYPE_INT32)) return fail_type(c, "bias", b->dtype);
    c->od.path = b && b->dtype == TA_DTYPE_INT32 ? P_S16_B32 : !b && allow_b32 ? P_S16_B32 : P_S16;
    ta_status st = requant_table(c, in, w, out, channels, false, q);
    if (st) return st;
    if (q->shift && c->od.path == P_S16)
        for (int32_t k = 0; k < channels; k++)
            if (q->shift[k] > 7) return fail(c, TA_E_UNSUPPORTED, "requantisation ratio too large for the int64 path");
    return TA_OK;
}

static ta_status prep_conv_s16(ctx_t *c, ta_requant *q, int32_t channels) {
    return prep_s16x8(c, in_t(c, 0), in_t(c, 1), in_t(c, 2), out_t(c, 0), q, channels, true);
}

/* CONV_2D and DEPTHWISE_CONV_2D: input, filter, optional bias and output;
 * the three 4-D shapes. */
static ta_status conv_io(ctx_t *c, ta_dims4 *in, ta_dims4 *filter, ta_dims4 *out) {
    ta_status st = need_io(c, 2, 3, 1);
    if (st) return st;
    if ((st = dims4(c, in_t(c, 0), in)) || (st = dims4(c, in_t(c, 1), filter)) || (st = dims4(c, out_t(c, 0), out))) return st;
    return TA_OK;
}

/* One spatial axis (w_axis: width, else height) of a conv or depthwise
 * conv: the stride and dilation (absent: 1) from the options, the output
 * extent (returned) and the leading padding.  SAME/VALID as TFLM's prepare
 * computes them; EXPLICIT (a PAD op folded into the conv by a rewrite,
 * rewrite.h) pads `lead` before and `trail` after, and the output is VALID's
 * over the padded extent.  The kernels take only the leading amount: taps
 * past the input's far edge are skipped, which is the trailing padding. */
static int32_t conv_axis(const ctx_t *c, bool w_axis, int32_t in, int32_t filter, int32_t *stride_out,
                         int32_t *dilation_out, int32_t *lead_out) {
    const ta_op_options *o = &c->op->opt;
    const int32_t stride = w_axis ? o->stride_w : o->stride_h, dil = w_axis ? o->dilation_w : o->dilation_h;
    const int32_t dilation = dil > 0 ? dil : 1;
    const int32_t lead = w_axis ? o->pad_left : o->pad_top, trail = w_axis ? o->pad_right : o->pad_bottom;
    *stride_out = stride;
    *dilation_out = dilation;
    if (o->padding == TA_PAD_EXPLICIT) {
        const int64_t padded = (int64_t)in + lead + trail;
        *lead_out = lead;
        if (lead < 0 || trail < 0 || padded > INT32_MAX) return 0; /* refused as a shape mismatch */
        return ta_kernel_out_size(TA_PAD_VALID, (int32_t)padded, filter, stride, dilation);
    }
    const int32_t out = ta_kernel_out_size(o->padding, in, filter, stride, dilation);
    *lead_out = ta_kernel_padding(stride, dilation, in, filter, out, NULL);
    return out;
}

static ta_status prep_conv(ctx_t *c) {
    ta_conv_params *p = &c->od.u.conv;
    ta_status st = conv_io(c, &p->input, &p->filter, &p->output);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *w = in_t(c, 1), *b = in_t(c, 2), *out = out_t(c, 0);
    const int32_t oh = conv_axis(c, false, p->input.h, p->filter.h, &p->stride_h, &p->dilation_h, &p->pad_h);
    const int32_t ow = conv_axis(c, true, p->input.w, p->filter.w, &p->stride_w, &p->dilation_w, &p->pad_w);
    if (oh != p->output.h || ow != p->output.w || p->output.c != p->filter.n || p->input.c % p->filter.c)
        return fail(c, TA_E_MALFORMED, "output shape does not match input, filter and options");
    if (p->output.n != p->input.n) return fail(c, TA_E_MALFORMED, "output batch differs from input");
    /* grouped conv: the kernel maps output channel oc to group oc / (filter.n / groups) */
    if (p->filter.n % (p->input.c / p->filter.c))
        return fail(c, TA_E_MALFORMED, "filter count is not a multiple of the groups (input channels / filter channels)");
    if ((st = bias_len(c, b, p->output.c))) return st;
    if (!w->data) return fail(c, TA_E_UNSUPPORTED, "filter is not constant");
    if (in->dtype == TA_DTYPE_INT16) {
        if ((st = acc64_ok(c, b, (int64_t)p->filter.h * p->filter.w * p->filter.c, 23))) return st;
        return prep_conv_s16(c, &p->q, p->output.c);
    }
    if (in->dtype == TA_DTYPE_INT8) return prep_s8_weights(c, in, w, b, out, "filter", p->output.c, false, &p->q);
    if (in->dtype == TA_DTYPE_FLOAT32) return prep_f32_weights(c, w, b, out, "filter", &p->act_min, &p->act_max);
    return fail_type(c, "input", in->dtype);
}

static ta_status prep_dwconv(ctx_t *c) {
    ta_dwconv_params *p = &c->od.u.dw;
    ta_status st = conv_io(c, &p->input, &p->filter, &p->output);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *w = in_t(c, 1), *b = in_t(c, 2), *out = out_t(c, 0);
    const int32_t oh = conv_axis(c, false, p->input.h, p->filter.h, &p->stride_h, &p->dilation_h, &p->pad_h);
    const int32_t ow = conv_axis(c, true, p->input.w, p->filter.w, &p->stride_w, &p->dilation_w, &p->pad_w);
    if (p->output.c % p->input.c) return fail(c, TA_E_MALFORMED, "output channels are not a multiple of input channels");
    p->depth_multiplier = p->output.c / p->input.c;
    if (oh != p->output.h || ow != p->output.w || p->filter.n != 1 || p->filter.c != p->output.c ||
        p->output.n != p->input.n)
        return fail(c, TA_E_MALFORMED, "output shape does not match input, filter and options");
    if ((st = bias_len(c, b, p->output.c))) return st;
    if (!w->data) return fail(c, TA_E_UNSUPPORTED, "filter is not constant");
    if (in->dtype == TA_DTYPE_INT8) return prep_s8_weights(c, in, w, b, out, "filter", p->output.c, false, &p->q);
    if (in->dtype == TA_DTYPE_FLOAT32) {
        if (w->dtype != TA_DTYPE_FLOAT32 || out->dtype != TA_DTYPE_FLOAT32) return fail_type(c, "filter/output", w->dtype);
        if (b && b->dtype != TA_DTYPE_FLOAT32) return fail_type(c, "bias", b->dtype);
        c->od.path = P_F32;
        return float_act(c, &p->act_min, &p->act_max);
    }
    return fail_type(c, "input", in->dtype);
}

static ta_status prep_fc(ctx_t *c) {
    ta_status st = need_io(c, 2, 3, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *w = in_t(c, 1), *b = in_t(c, 2), *out = out_t(c, 0);
    ta_fc_params *p = &c->od.u.fc;
    if (w->rank != 2 || w->shape[0] <= 0 || w->shape[1] <= 0) return fail(c, TA_E_MALFORMED, "weights must be 2-D");
    p->out_depth = w->shape[0];
    p->accum_depth = w->shape[1];
    int64_t no = elems(out);
    if (no % p->out_depth) return fail(c, TA_E_MALFORMED, "output size is not a multiple of the weights' rows");
    p->batches = (int32_t)(no / p->out_depth);
    if (elems(in) < (int64_t)p->batches * p->accum_depth) return fail(c, TA_E_MALFORMED, "input is smaller than batches x depth");
    if ((st = bias_len(c, b, p->out_depth))) return st;
    if (!w->data) return fail(c, TA_E_UNSUPPORTED, "weights are not constant");
    if (in->dtype == TA_DTYPE_INT8)
        return prep_s8_weights(c, in, w, b, out, "weights", p->out_depth, w->quant.count <= 1, &p->q);
    if (in->dtype == TA_DTYPE_FLOAT32) return prep_f32_weights(c, w, b, out, "weights", &p->act_min, &p->act_max);
    return fail_type(c, "input", in->dtype);
}

/* ADD, SUB, MUL: two inputs and the output, all of one type, with shapes
 * that broadcast to the output's.  float32: P_F32 and the activation range,
 * nothing more to derive. */
static ta_status prep_binary(ctx_t *c, ta_broadcast *shape, float *f_act_min, float *f_act_max) {
    ta_status st = need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *a = in_t(c, 0), *b = in_t(c, 1), *out = out_t(c, 0);
    if (a->dtype != b->dtype || a->dtype != out->dtype) return fail_type(c, "mixed input/output", b->dtype);
    if (ta_broadcast_init(shape, a->shape, a->rank, b->shape, b->rank))
        return fail(c, TA_E_UNSUPPORTED, "input shapes do not broadcast (or rank > 6)");
    int64_t n = 1;
    for (int32_t i = 0; i < shape->rank; i++) n *= shape->out[i];
    if (n != elems(out)) return fail(c, TA_E_MALFORMED, "output size does not match the broadcast shape");
    if (a->dtype != TA_DTYPE_FLOAT32) return TA_OK;
    c->od.path = P_F32;
    return float_act(c, f_act_min, f_act_max);
}

static ta_status prep_addsub(ctx_t *c) {
    ta_addsub_params *p = &c->od.u.as;
    ta_status st = prep_binary(c, &p->shape, &p->f_act_min, &p->f_act_max);
    if (st || c->od.path == P_F32) return st;
    const ta_tensor *a = in_t(c, 0), *b = in_t(c, 1), *out = out_t(c, 0);
    const bool sub = c->op->kind == TA_OP_SUB;
    if (a->dtype == TA_DTYPE_INT32 && !sub) {
        /* TFLM's int32 ADD: a plain sum (no activation, no quantisation) */
        c->od.path = P_S32;
        return TA_OK;
    }
    if (a->dtype != TA_DTYPE_INT8 && a->dtype != TA_DTYPE_INT16) return fail_type(c, "input", a->dtype);
    c->od.path = a->dtype == TA_DTYPE_INT8 ? P_S8 : P_S16;
    st = (sub ? ta_sub_prepare : ta_addsub_prepare)(p, a->dtype, scale_of(a), zp_of(a), scale_of(b), zp_of(b),
                                                    scale_of(out), zp_of(out), c->op->opt.activation);
    return st ? fail(c, st, "cannot derive the rescaling (scales or activation)") : TA_OK;
}

static ta_status prep_mul(ctx_t *c) {
    ta_mul_params *p = &c->od.u.mul;
    ta_status st = prep_binary(c, &p->shape, &p->f_act_min, &p->f_act_max);
    if (st || c->od.path == P_F32) return st;
    const ta_tensor *a = in_t(c, 0), *b = in_t(c, 1), *out = out_t(c, 0);
    if (a->dtype == TA_DTYPE_INT32) {
        /* TFLM's int32 MUL: the product clamped to the activation's int32 range */
        c->od.path = P_S32;
        st = ta_int32_activation_range(c->op->opt.activation, &p->act_min, &p->act_max);
        return st ? fail(c, st, "unsupported fused activation") : TA_OK;
    }
    if (a->dtype != TA_DTYPE_INT8) return fail_type(c, "input", a->dtype);
    c->od.path = P_S8;
    st = ta_mul_prepare(p, a->dtype, scale_of(a), zp_of(a), scale_of(b), zp_of(b), scale_of(out), zp_of(out),
                        c->op->opt.activation);
    if (!st && p->output_shift > 30) st = TA_E_UNSUPPORTED; /* the kernel shifts left by it in int32 */
    return st ? fail(c, st, "cannot derive the rescaling") : TA_OK;
}

static ta_status prep_pool(ctx_t *c) {
    ta_status st = need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    ta_pool_params *p = &c->od.u.pool;
    if ((st = dims4(c, in, &p->input)) || (st = dims4(c, out, &p->output))) return st;
    const ta_op_options *o = &c->op->opt;
    p->filter_h = o->filter_h;
    p->filter_w = o->filter_w;
    p->stride_h = o->stride_h;
    p->stride_w = o->stride_w;
    if (p->filter_h <= 0 || p->filter_w <= 0 || p->stride_h <= 0 || p->stride_w <= 0)
        return fail(c, TA_E_MALFORMED, "filter size and stride must be positive");
    int32_t oh = ta_kernel_out_size(o->padding, p->input.h, p->filter_h, p->stride_h, 1);
    int32_t ow = ta_kernel_out_size(o->padding, p->input.w, p->filter_w, p->stride_w, 1);
    p->pad_h = ta_kernel_padding(p->stride_h, 1, p->input.h, p->filter_h, oh, NULL);
    p->pad_w = ta_kernel_padding(p->stride_w, 1, p->input.w, p->filter_w, ow, NULL);
    if (oh != p->output.h || ow != p->output.w || p->output.c != p->input.c || p->output.n != p->input.n)
        return fail(c, TA_E_MALFORMED, "output shape does not match input and options");
    if (in->dtype != out->dtype) return fail_type(c, "output", out->dtype);
    if (in->dtype == TA_DTYPE_INT8) {
        c->od.path = P_S8;
        st = ta_quant_activation_range(o->activation, scale_of(out), zp_of(out), TA_DTYPE_INT8, &p->act_min, &p->act_max);
        return st ? fail(c, st, "unsupported fused activation") : TA_OK;
    }
    if (in->dtype == TA_DTYPE_FLOAT32) {
        c->od.path = P_F32;
        return float_act(c, &p->f_act_min, &p->f_act_max);
    }
    return fail_type(c, "input", in->dtype);
}

static ta_status prep_mean(ctx_t *c) {
    ta_status st = need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    const int32_t *axes;
    int64_t na;
    if ((st = const_i32(c, in_t(c, 1), &axes, &na))) return st;
    ta_mean_params *p = &c->od.u.mean;
    if (ta_mean_axes(p, in->shape, in->rank, axes, (int32_t)na)) return fail(c, TA_E_UNSUPPORTED, "bad axes or rank > 5");
    int64_t no = 1;
    for (int32_t d = 0; d < p->rank; d++)
        if (!p->reduce[d]) no *= p->in_shape[d];
    if (no != elems(out)) return fail(c, TA_E_MALFORMED, "output size does not match the reduction");
    if (in->dtype != out->dtype) return fail_type(c, "output", out->dtype);
    if (in->dtype == TA_DTYPE_FLOAT32) {
        c->od.path = P_F32;
        return TA_OK;
    }
    if (in->dtype != TA_DTYPE_INT8) return fail_type(c, "input", in->dtype);
    c->od.path = P_S8;
    p->input_zp = zp_of(in);
    p->output_zp = zp_of(out);
    p->same_quant = false; /* TFLM (reference commit) always requantises; see kernels.h */
    if (!(scale_of(out) > 0.0f)) return fail(c, TA_E_MALFORMED, "output scale is not positive");
    ta_quant_multiplier((double)scale_of(in) / (double)scale_of(out), &p->mult, &p->shift);
    if (p->shift > 30) return fail(c, TA_E_UNSUPPORTED, "requantisation ratio out of range");
    c->scratch = ta_kernel_mean_s8_scratch_bytes(p);
    return TA_OK;
}

static ta_status prep_softmax(ctx_t *c) {
    ta_status st = need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    ta_softmax_params *p = &c->od.u.sm;
    if (in->rank < 1 || in->shape[in->rank - 1] <= 0) return fail(c, TA_E_MALFORMED, "input has no last axis");
    p->depth = in->shape[in->rank - 1];
    p->outer = (int32_t)(elems(in) / p->depth);
    if (elems(out) != elems(in)) return fail(c, TA_E_MALFORMED, "output size differs from input");
    if (in->dtype == TA_DTYPE_FLOAT32 && out->dtype == TA_DTYPE_FLOAT32) {
        c->od.path = P_F32;
        p->beta = c->op->opt.beta;
        return TA_OK;
    }
    if (in->dtype != TA_DTYPE_INT8) return fail_type(c, "input", in->dtype);
    if (out->dtype == TA_DTYPE_INT8) {
        if (zp_of(out) != -128 || scale_of(out) != 1.0f / 256.0f) return fail(c, TA_E_UNSUPPORTED, "int8 output must have scale 1/256 and zero point -128");
        c->od.path = P_S8;
    } else if (out->dtype == TA_DTYPE_INT16) {
        if (zp_of(out) != -32768) return fail(c, TA_E_UNSUPPORTED, "int16 output must have zero point -32768");
        c->od.path = P_S8_S16;
    } else {
        return fail_type(c, "output", out->dtype);
    }
    st = ta_softmax_prepare_s8(p, c->op->opt.beta, scale_of(in));
    return st ? fail(c, st, "beta * input scale too small") : TA_OK;
}

/* Elementwise unary ops (LOGISTIC, TANH, LEAKY_RELU, HARD_SWISH): one input
 * and one output of the same type and size; *count their elements.
 * float32: P_F32, nothing more to derive. */
static ta_status prep_unary(ctx_t *c, size_t *count) {
    ta_status st = need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    if (in->dtype != out->dtype || elems(in) != elems(out)) return fail(c, TA_E_MALFORMED, "output differs from input");
    *count = (size_t)elems(in);
    if (in->dtype == TA_DTYPE_FLOAT32) c->od.path = P_F32;
    return TA_OK;
}

static ta_status prep_act(ctx_t *c) {
    ta_status st = prep_unary(c, &c->od.u.act.count);
    if (st || c->od.path == P_F32) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    if (in->dtype != TA_DTYPE_INT8) return fail_type(c, "input", in->dtype);
    const bool logistic = c->op->kind == TA_OP_LOGISTIC;
    if (zp_of(out) != (logistic ? -128 : 0)) return fail(c, TA_E_UNSUPPORTED, "unexpected output zero point");
    c->od.path = P_S8;
    ta_act_prepare_s8(&c->od.u.act.p, scale_of(in), zp_of(in));
    return TA_OK;
}

static ta_status prep_quantize(ctx_t *c) {
    ta_status st = need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    if (elems(in) != elems(out)) return fail(c, TA_E_MALFORMED, "output size differs from input");
    c->od.u.q.n = (size_t)elems(in);
    c->od.u.q.in_type = in->dtype;
    c->od.u.q.out_type = out->dtype;
    c->od.u.q.in_zp = zp_of(in);
    c->od.u.q.out_zp = zp_of(out);
    const bool int_out = out->dtype == TA_DTYPE_INT8 || out->dtype == TA_DTYPE_UINT8 || out->dtype == TA_DTYPE_INT16 ||
                         (out->dtype == TA_DTYPE_INT32 && (in->dtype == TA_DTYPE_INT8 || in->dtype == TA_DTYPE_INT16));
    const bool int_in = in->dtype == TA_DTYPE_INT8 || in->dtype == TA_DTYPE_UINT8 || in->dtype == TA_DTYPE_INT16 ||
                        (in->dtype == TA_DTYPE_INT32 && c->op->kind == TA_OP_QUANTIZE);
    if (c->op->kind == TA_OP_DEQUANTIZE) {
        if (!int_in) return fail_type(c, "input", in->dtype);
        if (out->dtype != TA_DTYPE_FLOAT32) return fail_type(c, "output", out->dtype);
        c->od.u.q.scale = scale_of(in);
        c->od.path = P_F32;
        return TA_OK;
    }
    if (!int_out) return fail_type(c, "output", out->dtype);
    if (!(scale_of(out) > 0.0f)) return fail(c, TA_E_MALFORMED, "output scale is not positive");
    if (in->dtype == TA_DTYPE_FLOAT32) {
        c->od.u.q.scale = scale_of(out);
        c->od.path = P_F32;
        return TA_OK;
    }
    if (!int_in) return fail_type(c, "input", in->dtype);
    ta_quant_multiplier((double)scale_of(in) / (double)scale_of(out), &c->od.u.q.mult, &c->od.u.q.shift);
    if (c->od.u.q.shift > 30) return fail(c, TA_E_UNSUPPORTED, "requantisation ratio too large");
    c->od.path = P_S8;
    return TA_OK;
}

static ta_status prep_copy(ctx_t *c) {
    if (c->op->n_inputs < 1 || c->op->n_outputs != 1 || !in_t(c, 0) || !out_t(c, 0))
        return fail(c, TA_E_MALFORMED, "expects an input and an output");
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    if (in->bytes != out->bytes) return fail(c, TA_E_MALFORMED, "output bytes differ from input");
    c->od.path = P_COPY;
    c->od.u.copy.bytes = out->bytes;
    return TA_OK;
}

static ta_status prep_pad(ctx_t *c) {
    ta_status st = need_io(c, 2, 3, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0), *cv = in_t(c, 2);
    const int32_t *pads;
    int64_t np;
    if ((st = const_i32(c, in_t(c, 1), &pads, &np))) return st;
    ta_pad_params *p = &c->od.u.pad.p;
    if (in->rank < 1 || in->rank > TA_KERNEL_MAX_PAD_RANK || np != 2 * in->rank) return fail(c, TA_E_UNSUPPORTED, "rank above 5 or bad paddings");
    p->rank = in->rank;
    p->elem_size = ta_dtype_size(in->dtype);
    if (in->dtype != out->dtype || (p->elem_size != 1 && p->elem_size != 2 && p->elem_size != 4 && p->elem_size != 8))
        return fail_type(c, "input", in->dtype);
    int64_t no = 1;
    for (int32_t d = 0; d < p->rank; d++) {
        p->in_shape[d] = in->shape[d];
        p->before[d] = pads[2 * d];
        p->after[d] = pads[2 * d + 1];
        if (p->before[d] < 0 || p->after[d] < 0) return fail(c, TA_E_MALFORMED, "negative padding");
        if (p->in_shape[d] < 0) return fail(c, TA_E_MALFORMED, "input has an unknown (-1) dim");
        /* each padded extent fits int64; the running product is capped so
         * that it cannot overflow (the output has at most INT32_MAX elements) */
        const int64_t ext = (int64_t)p->in_shape[d] + p->before[d] + p->after[d];
        if (ext > INT32_MAX) return fail(c, TA_E_MALFORMED, "padded extent above 2^31-1");
        no *= ext;
        if (no > INT32_MAX) return fail(c, TA_E_MALFORMED, "output size does not match the paddings");
    }
    if (no != elems(out)) return fail(c, TA_E_MALFORMED, "output size does not match the paddings");
    memset(c->od.u.pad.value, 0, sizeof c->od.u.pad.value);
    if (cv && cv->data && cv->data_bytes >= p->elem_size) {
        memcpy(c->od.u.pad.value, cv->data, p->elem_size);
    } else if (cv) {
        return fail(c, TA_E_UNSUPPORTED, "pad value is not constant");
    } else if (in->dtype == TA_DTYPE_INT8) {
        int8_t z = (int8_t)zp_of(out);
        memcpy(c->od.u.pad.value, &z, 1);
    } else if (in->dtype == TA_DTYPE_UINT8) {
        uint8_t z = (uint8_t)zp_of(out);
        memcpy(c->od.u.pad.value, &z, 1);
    } else if (in->dtype == TA_DTYPE_INT16) {
        int16_t z = (int16_t)zp_of(out);
        memcpy(c->od.u.pad.value, &z, 2);
    }
    c->od.path = P_COPY;
    return TA_OK;
}

static ta_status prep_transpose(ctx_t *c) {
    ta_status st = need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    const int32_t *perm;
    int64_t np;
    if ((st = const_i32(c, in_t(c, 1), &perm, &np))) return st;
    ta_transpose_params *p = &c->od.u.tr;
    if (in->rank < 1 || in->rank > TA_KERNEL_MAX_TRANSPOSE_RANK || np != in->rank) return fail(c, TA_E_UNSUPPORTED, "rank above 6 or bad perm");
    p->rank = in->rank;
    p->elem_size = ta_dtype_size(in->dtype);
    if (!p->elem_size || in->dtype != out->dtype) return fail_type(c, "input", in->dtype);
    for (int32_t d = 0; d < p->rank; d++) {
        p->in_shape[d] = in->shape[d];
        p->perm[d] = perm[d];
        if (perm[d] < 0 || perm[d] >= p->rank) return fail(c, TA_E_MALFORMED, "perm out of range");
    }
    if (elems(in) != elems(out)) return fail(c, TA_E_MALFORMED, "output size differs from input");
    c->od.path = P_COPY;
    return TA_OK;
}

static ta_status prep_concat(ctx_t *c) {
    if (c->op->n_inputs < 1 || c->op->n_outputs != 1 || !out_t(c, 0)) return fail(c, TA_E_MALFORMED, "expects inputs and one output");
    if (c->op->n_inputs > 64) return fail(c, TA_E_UNSUPPORTED, "more than 64 inputs");
    const ta_tensor *out = out_t(c, 0);
    int32_t axis = c->op->opt.axis < 0 ? c->op->opt.axis + out->rank : c->op->opt.axis;
    if (axis < 0 || axis >= out->rank) return fail(c, TA_E_MALFORMED, "axis out of range");
    size_t es = ta_dtype_size(out->dtype);
    if (!es || out->dtype == TA_DTYPE_INT4) return fail_type(c, "output", out->dtype);
    int64_t outer = 1, inner = 1;
    for (int32_t d = 0; d < axis; d++) outer *= out->shape[d];
    for (int32_t d = axis + 1; d < out->rank; d++) inner *= out->shape[d];
    int64_t *cb = take(&c->carve, sizeof(int64_t) * c->op->n_inputs);
    int64_t total = 0;
    for (uint32_t k = 0; k < c->op->n_inputs; k++) {
        const ta_tensor *t = in_t(c, k);
        if (!t) return fail(c, TA_E_MALFORMED, "an input is missing");
        if (t->dtype != out->dtype) return fail_type(c, "mixed input", t->dtype);
        if (t->rank != out->rank) return fail(c, TA_E_MALFORMED, "input rank differs from output");
        /* the kernel copies rows of `inner` elements from every input: each
         * input must have the output's dims except along the axis */
        for (int32_t d = 0; d < out->rank; d++)
            if (d != axis && t->shape[d] != out->shape[d])
                return fail(c, TA_E_MALFORMED, "an input's dims differ from the output's off the axis");
        if (t->dtype == TA_DTYPE_INT8 && (scale_of(t) != scale_of(out) || zp_of(t) != zp_of(out)))
            return fail(c, TA_E_UNSUPPORTED, "int8 inputs must share the output's scale and zero point");
        int64_t ax = t->shape[axis];
        total += ax;
        if (cb) cb[k] = ax * inner * (int64_t)es;
    }
    if (total != out->shape[axis]) return fail(c, TA_E_MALFORMED, "input extents do not sum to the output's");
    c->od.u.cat.n_inputs = (int32_t)c->op->n_inputs;
    c->od.u.cat.outer = outer;
    c->od.u.cat.copy_bytes = cb;
    c->od.path = P_COPY;
    return TA_OK;
}

static ta_status prep_slice(ctx_t *c) {
    ta_status st = need_io(c, 4, 4, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    const int32_t *b, *e, *s;
    int64_t nb, ne, ns;
    if ((st = const_i32(c, in_t(c, 1), &b, &nb)) || (st = const_i32(c, in_t(c, 2), &e, &ne)) ||
        (st = const_i32(c, in_t(c, 3), &s, &ns)))
        return st;
    const ta_op_options *o = &c->op->opt;
    if (o->ellipsis_mask || o->new_axis_mask) return fail(c, TA_E_UNSUPPORTED, "ellipsis/new-axis masks");
    if (nb != in->rank || ne != in->rank || ns != in->rank) return fail(c, TA_E_MALFORMED, "begin/end/strides must match the input rank");
    if (in->dtype != out->dtype) return fail_type(c, "output", out->dtype);
    /* The kernel walks each axis with int32 indices i += stride from a start
     * in [-1, n]: |stride| <= INT32_MAX - n keeps every step in range. */
    for (int32_t d = 0; d < in->rank; d++) {
        const int64_t mag = s[d] < 0 ? -(int64_t)s[d] : (int64_t)s[d];
        if (in->shape[d] < 0) return fail(c, TA_E_MALFORMED, "input has an unknown (-1) dim");
        if (mag > (int64_t)INT32_MAX - in->shape[d]) return fail(c, TA_E_MALFORMED, "a stride is out of range for the input extent");
    }
    ta_slice_params *p = &c->od.u.sl;
    if (ta_strided_slice_resolve(p, in->shape, in->rank, b, e, s, o->begin_mask, o->end_mask, o->shrink_axis_mask,
                                 o->offset, ta_dtype_size(in->dtype)))
        return fail(c, TA_E_UNSUPPORTED, "rank above 5 or zero stride");
    int64_t n = 1;
    for (int32_t d = 0; d < p->rank; d++) {
        /* in int64: start, stop and stride are int32 and their differences are not */
        const int64_t start = p->start[d], stop = p->stop[d], stride = p->stride[d];
        const int64_t len = stride > 0 ? (stop - start + stride - 1) / stride : (start - stop - stride - 1) / -stride;
        n *= len > 0 ? len : 0;
    }
    if (n != elems(out)) return fail(c, TA_E_MALFORMED, "output size does not match the slice");
    c->od.path = P_COPY;
    return TA_OK;
}

static ta_status prep_resize(ctx_t *c) {
    ta_status st = need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    const int32_t *size;
    int64_t ns;
    if ((st = const_i32(c, in_t(c, 1), &size, &ns))) return st;
    ta_resize_params *p = &c->od.u.rs;
    ta_dims4 od;
    if ((st = dims4(c, in, &p->input)) || (st = dims4(c, out, &od))) return st;
    if (ns != 2 || size[0] != od.h || size[1] != od.w || od.c != p->input.c || od.n != p->input.n)
        return fail(c, TA_E_MALFORMED, "output shape does not match the size operand");
    if (in->dtype != out->dtype) return fail_type(c, "output", out->dtype);
    p->out_h = od.h;
    p->out_w = od.w;
    p->align_corners = c->op->opt.align_corners;
    p->half_pixel_centers = c->op->opt.half_pixel_centers;
    p->elem_size = ta_dtype_size(in->dtype);
    if (!p->elem_size || in->dtype == TA_DTYPE_INT4) return fail_type(c, "input", in->dtype);
    c->od.path = P_COPY;
    return TA_OK;
}

/* ---- int16 / recurrent / attention ops ---------------------------------- */

static ta_status prep_leaky(ctx_t *c) {
    c->od.u.leaky.p.alpha = c->op->opt.alpha;
    ta_status st = prep_unary(c, &c->od.u.leaky.count);
    if (st || c->od.path == P_F32) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    if (in->dtype != TA_DTYPE_INT8 && in->dtype != TA_DTYPE_INT16) return fail_type(c, "input", in->dtype);
    c->od.path = in->dtype == TA_DTYPE_INT8 ? P_S8 : P_S16;
    st = ta_leaky_relu_prepare(&c->od.u.leaky.p, c->op->opt.alpha, scale_of(in), zp_of(in), scale_of(out), zp_of(out));
    return st ? fail(c, st, "alpha or scales out of range") : TA_OK;
}

static ta_status prep_hswish(ctx_t *c) {
    ta_status st = prep_unary(c, &c->od.u.hswish.count);
    if (st || c->od.path == P_F32) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    if (in->dtype != TA_DTYPE_INT8) return fail_type(c, "input", in->dtype);
    c->od.path = P_S8;
    st = ta_hard_swish_prepare(&c->od.u.hswish.p, scale_of(in), zp_of(in), scale_of(out), zp_of(out));
    return st ? fail(c, st, "scales out of range (output multiplier above one)") : TA_OK;
}

/* TRANSPOSE_CONV: inputs output_shape (ignored, as TFLM), filter, input,
 * bias (optional). */
static ta_status prep_tconv(ctx_t *c) {
    ta_status st = need_io(c, 3, 4, 1);
    if (st) return st;
    const ta_tensor *w = in_t(c, 1), *in = in_t(c, 2), *b = in_t(c, 3), *out = out_t(c, 0);
    ta_tconv_params *p = &c->od.u.tconv;
    if ((st = dims4(c, in, &p->input)) || (st = dims4(c, w, &p->filter)) || (st = dims4(c, out, &p->output))) return st;
    const ta_op_options *o = &c->op->opt;
    p->stride_h = o->stride_h;
    p->stride_w = o->stride_w;
    if (p->stride_h <= 0 || p->stride_w <= 0) return fail(c, TA_E_MALFORMED, "stride must be positive");
    /* TFLM: padding over the output extent, dilation 1 */
    const int32_t oh = ta_kernel_out_size(o->padding, p->output.h, p->filter.h, p->stride_h, 1);
    const int32_t ow = ta_kernel_out_size(o->padding, p->output.w, p->filter.w, p->stride_w, 1);
    p->pad_h = ta_kernel_padding(p->stride_h, 1, p->output.h, p->filter.h, oh, NULL);
    p->pad_w = ta_kernel_padding(p->stride_w, 1, p->output.w, p->filter.w, ow, NULL);
    if (p->filter.c != p->input.c || p->filter.n != p->output.c || p->input.n != p->output.n)
        return fail(c, TA_E_MALFORMED, "filter does not match input and output channels");
    if ((st = bias_len(c, b, p->output.c))) return st;
    if (!w->data) return fail(c, TA_E_UNSUPPORTED, "filter is not constant");
    if (in->dtype != out->dtype) return fail_type(c, "output", out->dtype);
    if (in->dtype == TA_DTYPE_FLOAT32) {
        if (w->dtype != TA_DTYPE_FLOAT32) return fail_type(c, "filter", w->dtype);
        if (b && b->dtype != TA_DTYPE_FLOAT32) return fail_type(c, "bias", b->dtype);
        if (o->activation != TA_ACT_NONE) return fail(c, TA_E_UNSUPPORTED, "fused activation on float transpose conv");
        c->od.path = P_F32;
        return TA_OK;
    }
    if (in->dtype == TA_DTYPE_INT8) {
        c->scratch = ta_kernel_transpose_conv_scratch_bytes(p, TA_DTYPE_INT8);
        return prep_s8_weights(c, in, w, b, out, "filter", p->output.c, false, &p->q);
    }
    if (in->dtype == TA_DTYPE_INT16) {
        /* an output element gathers at most filter.h x filter.w x input.c products */
        if ((st = acc64_ok(c, b, (int64_t)p->filter.h * p->filter.w * p->input.c, 23))) return st;
        c->scratch = ta_kernel_transpose_conv_scratch_bytes(p, TA_DTYPE_INT16);
        return prep_s16x8(c, in, w, b, out, &p->q, p->output.c, false);
    }
    return fail_type(c, "input", in->dtype);
}

static ta_status prep_bmm(ctx_t *c) {
    ta_status st = need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *l = in_t(c, 0), *r = in_t(c, 1), *out = out_t(c, 0);
    ta_batch_matmul_params *p = &c->od.u.bmm;
    if (l->rank < 2 || l->rank > 5 || r->rank < 2 || r->rank > 5) return fail(c, TA_E_UNSUPPORTED, "operand rank outside 2..5");
    for (int32_t d = 0; d < 5; d++) {
        p->lhs[d] = d < 5 - l->rank ? 1 : l->shape[d - (5 - l->rank)];
        p->rhs[d] = d < 5 - r->rank ? 1 : r->shape[d - (5 - r->rank)];
    }
    p->adj_x = c->op->opt.adj_x;
    p->adj_y = c->op->opt.adj_y;
    int32_t os[5];
    if (ta_batch_matmul_shape(p, os)) return fail(c, TA_E_MALFORMED, "operand shapes do not multiply (or batch dims do not broadcast)");
    int64_t n = 1;
    for (int d = 0; d < 5; d++) n *= os[d];
    if (n != elems(out)) return fail(c, TA_E_MALFORMED, "output size does not match the product");
    if (l->dtype != r->dtype || l->dtype != out->dtype) return fail_type(c, "mixed operand/output", r->dtype);
    if (l->dtype == TA_DTYPE_FLOAT32) {
        c->od.path = P_F32;
        return TA_OK;
    }
    if (l->dtype != TA_DTYPE_INT8 && l->dtype != TA_DTYPE_INT16) return fail_type(c, "input", l->dtype);
    if (!(scale_of(out) > 0.0f)) return fail(c, TA_E_MALFORMED, "output scale is not positive");
    p->lhs_offset = -zp_of(l);
    p->rhs_offset = -zp_of(r);
    p->output_offset = zp_of(out);
    ta_quant_multiplier(ta_quant_fc_real_multiplier(scale_of(l), scale_of(r), scale_of(out)), &p->mult, &p->shift);
    if (l->dtype == TA_DTYPE_INT16) {
        if (zp_of(l) || zp_of(r) || zp_of(out)) return fail(c, TA_E_UNSUPPORTED, "int16 operands need zero point 0");
        if (p->shift > 7) return fail(c, TA_E_UNSUPPORTED, "requantisation ratio too large");
        if ((st = acc64_ok(c, NULL, p->adj_x ? p->lhs[3] : p->lhs[4], 30))) return st;
        c->od.path = P_S16;
        return TA_OK;
    }
    if (p->shift > 30) return fail(c, TA_E_UNSUPPORTED, "requantisation ratio too large");
    c->od.path = P_S8;
    return TA_OK;
}

/* A variable (state) operand: present, flagged variable, of this type. */
static ta_status need_state(ctx_t *c, const ta_tensor *t, ta_dtype type, const char *what) {
    if (!t) return fail(c, TA_E_MALFORMED, what);
    if (!(t->flags & TA_TENSOR_VARIABLE) || (t->flags & TA_TENSOR_CONST))
        return fail(c, TA_E_UNSUPPORTED, "state operand is not a variable tensor");
    if (t->dtype != type) return fail_type(c, "state", t->dtype);
    return TA_OK;
}

/* SVDF: input, weights_feature, weights_time, bias (optional), state. */
static ta_status prep_svdf(ctx_t *c) {
    ta_status st = need_io(c, 5, 5, 1);
    if (!st && (!in_t(c, 0) || !in_t(c, 1) || !in_t(c, 2) || !in_t(c, 4)))
        st = fail(c, TA_E_MALFORMED, "a required input is missing");
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *wf = in_t(c, 1), *wt = in_t(c, 2), *b = in_t(c, 3), *state = in_t(c, 4);
    const ta_tensor *out = out_t(c, 0);
    ta_svdf_params *p = &c->od.u.svdf;
    if (in->rank != 2 || wf->rank != 2 || wt->rank != 2 || out->rank != 2) return fail(c, TA_E_MALFORMED, "expects 2-D operands");
    p->batch = in->shape[0];
    p->input_size = in->shape[1];
    p->n_filter = wf->shape[0];
    p->n_memory = wt->shape[1];
    p->rank = c->op->opt.rank;
    if (p->rank <= 0 || p->n_filter <= 0 || p->n_filter % p->rank || p->n_memory <= 0 || p->batch <= 0)
        return fail(c, TA_E_MALFORMED, "rank does not divide the filters");
    const int32_t units = p->n_filter / p->rank;
    if (wf->shape[1] != p->input_size || wt->shape[0] != p->n_filter || out->shape[0] != p->batch ||
        out->shape[1] != units || (b && elems(b) != units) ||
        elems(state) != (int64_t)p->batch * p->n_filter * p->n_memory)
        return fail(c, TA_E_MALFORMED, "operand shapes do not match");
    if (in->dtype != TA_DTYPE_INT8) return fail_type(c, "input", in->dtype);
    if (wf->dtype != TA_DTYPE_INT8 || !wf->data) return fail(c, TA_E_UNSUPPORTED, "feature weights must be constant int8");
    if ((wt->dtype != TA_DTYPE_INT16 && wt->dtype != TA_DTYPE_INT8) || !wt->data)
        return fail(c, TA_E_UNSUPPORTED, "time weights must be constant int16 or int8");
    if ((st = need_state(c, state, wt->dtype, "the state is missing"))) return st;
    if (b && b->dtype != TA_DTYPE_INT32) return fail_type(c, "bias", b->dtype);
    if (out->dtype != TA_DTYPE_INT8) return fail_type(c, "output", out->dtype);
    c->od.path = wt->dtype == TA_DTYPE_INT16 ? P_S8 : P_S8_S8;
    st = ta_svdf_prepare(p, scale_of(in), zp_of(in), scale_of(wf), scale_of(wt), scale_of(state), zp_of(state),
                         scale_of(out), zp_of(out));
    if (st) return fail(c, st, "scales out of range");
    c->scratch = ta_kernel_svdf_scratch_bytes(p);
    return TA_OK;
}

/* UNIDIRECTIONAL_SEQUENCE_LSTM, TFLM's 24 inputs: 0 input, 1-4 input
 * weights (i, f, c, o), 5-8 recurrent weights, 9-11 peephole, 12-15 biases,
 * 16-17 projection, 18 hidden state, 19 cell state, 20-23 layer norm. */
static ta_status prep_lstm(ctx_t *c) {
    if (c->op->n_inputs != 24 || c->op->n_outputs != 1 || !out_t(c, 0))
        return fail(c, TA_E_MALFORMED, "expects 24 inputs and one output");
    static const uint8_t k_absent[] = {9, 10, 11, 16, 17, 20, 21, 22, 23};
    for (size_t k = 0; k < sizeof k_absent; k++)
        if (in_t(c, k_absent[k])) return fail(c, TA_E_UNSUPPORTED, "peephole, projection or layer norm");
    for (uint32_t k = 0; k < 16; k++)
        if ((k <= 8 || k >= 12) && !in_t(c, k)) return fail(c, TA_E_UNSUPPORTED, "an input, weight or bias is missing (CIFG)");
    const ta_tensor *in = in_t(c, 0), *h = in_t(c, 18), *cs = in_t(c, 19), *out = out_t(c, 0);
    ta_status st;
    if (in->dtype != TA_DTYPE_INT8) return fail_type(c, "input", in->dtype);
    if ((st = need_state(c, h, TA_DTYPE_INT8, "the hidden state is missing")) ||
        (st = need_state(c, cs, TA_DTYPE_INT16, "the cell state is missing")))
        return st;
    if (out->dtype != TA_DTYPE_INT8) return fail_type(c, "output", out->dtype);
    ta_lstm_params *p = &c->od.u.lstm;
    if (in->rank != 3 || out->rank != 3 || h->rank < 1) return fail(c, TA_E_MALFORMED, "expects 3-D input and output");
    p->time_major = c->op->opt.time_major;
    p->batch = p->time_major ? in->shape[1] : in->shape[0];
    p->time = p->time_major ? in->shape[0] : in->shape[1];
    p->input_dim = in->shape[2];
    p->state_dim = h->shape[h->rank - 1];
    if (p->batch <= 0 || p->time <= 0 || p->input_dim <= 0 || p->state_dim <= 0) return fail(c, TA_E_MALFORMED, "non-positive dims");
    const int64_t bs = (int64_t)p->batch * p->state_dim;
    if (elems(h) != bs || elems(cs) != bs || out->shape[0] != in->shape[0] || out->shape[1] != in->shape[1] ||
        out->shape[2] != p->state_dim)
        return fail(c, TA_E_MALFORMED, "state or output shape does not match");
    for (int g = 0; g < 4; g++) {
        const ta_tensor *wi = in_t(c, 1 + (uint32_t)g), *wr = in_t(c, 5 + (uint32_t)g), *b = in_t(c, 12 + (uint32_t)g);
        if (wi->dtype != TA_DTYPE_INT8 || wr->dtype != TA_DTYPE_INT8) return fail_type(c, "weights", wi->dtype);
        if (!wi->data || !wr->data || !b->data) return fail(c, TA_E_UNSUPPORTED, "weights and biases must be constant");
        if (b->dtype != TA_DTYPE_INT32) return fail_type(c, "bias", b->dtype);
        if (wi->rank != 2 || wi->shape[0] != p->state_dim || wi->shape[1] != p->input_dim || wr->rank != 2 ||
            wr->shape[0] != p->state_dim || wr->shape[1] != p->state_dim || elems(b) != p->state_dim)
            return fail(c, TA_E_MALFORMED, "weight or bias shape does not match");
        if (wi->quant.count > 1 || wr->quant.count > 1) return fail(c, TA_E_UNSUPPORTED, "per-channel gate weights");
        ta_lstm_fc_prepare(&p->in_fc[g], scale_of(in), zp_of(in), scale_of(wi), zp_of(wi));
        ta_lstm_fc_prepare(&p->rec_fc[g], scale_of(h), zp_of(h), scale_of(wr), zp_of(wr));
        if (p->in_fc[g].shift > 30 || p->rec_fc[g].shift > 30) return fail(c, TA_E_UNSUPPORTED, "gate rescaling out of range");
    }
    p->cell_act = (int32_t)c->op->opt.activation;
    if (p->cell_act != TA_ACT_TANH && p->cell_act != TA_ACT_SIGMOID)
        return fail(c, TA_E_UNSUPPORTED, "cell gate activation other than tanh or sigmoid");
    st = ta_lstm_cell_prepare(p, scale_of(cs), c->op->opt.cell_clip, scale_of(h), zp_of(h));
    if (st) return fail(c, st, "cell state scale is not a power of two");
    if (p->cell_scale_power > 0 || p->cell_scale_power < -30) return fail(c, TA_E_UNSUPPORTED, "cell state scale out of range");
    c->od.path = P_S8;
    c->scratch = ta_kernel_lstm_scratch_bytes(p);
    return TA_OK;
}

/* ---- integer arithmetic: int32 DIV, MINIMUM/MAXIMUM, CAST ---------------- */

static ta_status prep_div(ctx_t *c) {
    ta_status st = need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *a = in_t(c, 0), *b = in_t(c, 1);
    if (a->dtype != TA_DTYPE_INT32) return fail_type(c, "input", a->dtype);
    /* TFLM: int32 DIV only without quantisation */
    if (a->quant.count || b->quant.count) return fail(c, TA_E_UNSUPPORTED, "quantised int32 inputs");
    float lo, hi;
    if ((st = prep_binary(c, &c->od.u.div.shape, &lo, &hi))) return st;
    c->od.path = P_S32;
    st = ta_int32_activation_range(c->op->opt.activation, &c->od.u.div.act_min, &c->od.u.div.act_max);
    return st ? fail(c, st, "unsupported fused activation") : TA_OK;
}

static ta_status prep_minmax(ctx_t *c) {
    float lo, hi;
    ta_status st = prep_binary(c, &c->od.u.mm.shape, &lo, &hi);
    if (st) return st;
    const ta_dtype t = in_t(c, 0)->dtype;
    if (t != TA_DTYPE_INT8 && t != TA_DTYPE_INT16 && t != TA_DTYPE_INT32 && t != TA_DTYPE_FLOAT32)
        return fail_type(c, "input", t);
    c->od.u.mm.type = t;
    c->od.path = P_COPY;
    return TA_OK;
}

static ta_status prep_cast(ctx_t *c) {
    ta_status st = need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    if (elems(in) != elems(out)) return fail(c, TA_E_MALFORMED, "output size differs from input");
    if (!ta_kernel_cast_supported(in->dtype, out->dtype))
        return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): cast from %s to %s is not supported", c->index,
                           kname(c), ta_dtype_str(in->dtype), ta_dtype_str(out->dtype));
    c->od.u.cast.in_type = in->dtype;
    c->od.u.cast.out_type = out->dtype;
    c->od.u.cast.n = (size_t)elems(in);
    c->od.path = P_COPY;
    return TA_OK;
}

/* ---- TFLM's signal library (custom ops) --------------------------------- */

/* The op's custom options: a FlexBuffer map, verified in full. */
static ta_status custom_options(ctx_t *c, ta_flex_ref *map) {
    if (!c->op->custom_data || !c->op->custom_data_bytes) return fail(c, TA_E_MALFORMED, "custom options are missing");
    ta_diag d;
    d.msg[0] = 0;
    ta_status st = ta_flex_root(c->op->custom_data, c->op->custom_data_bytes, map, &d);
    if (st) return ta_diag_set(c->diag, st, "op %u (%s): custom options: %s", c->index, kname(c), d.msg);
    if (map->type != TA_FLEX_MAP) return fail(c, TA_E_MALFORMED, "custom options are not a FlexBuffer map");
    return TA_OK;
}

/* Integer option `key` of the options map, in [lo, hi]. */
static ta_status opt_int(ctx_t *c, const ta_flex_ref *map, const char *key, int64_t lo, int64_t hi, int64_t *v) {
    ta_flex_ref r;
    ta_status st = ta_flex_map_find(map, key, &r);
    if (st == TA_E_NOT_FOUND)
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): custom option '%s' is missing", c->index, kname(c), key);
    if (st || ta_flex_int(&r, v))
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): custom option '%s' is not an integer", c->index, kname(c),
                           key);
    if (*v < lo || *v > hi)
        return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): custom option '%s' = %lld is outside %lld..%lld",
                           c->index, kname(c), key, (long long)*v, (long long)lo, (long long)hi);
    return TA_OK;
}

static ta_status opt_i32(ctx_t *c, const ta_flex_ref *map, const char *key, int64_t lo, int64_t hi, int32_t *out) {
    int64_t v;
    ta_status st = opt_int(c, map, key, lo, hi, &v);
    if (!st) *out = (int32_t)v;
    return st;
}

/* TFLM reads these as int32 into uint32 fields: -1 is 0xFFFFFFFF. */
static ta_status opt_u32(ctx_t *c, const ta_flex_ref *map, const char *key, uint32_t *out) {
    int64_t v;
    ta_status st = opt_int(c, map, key, INT32_MIN, UINT32_MAX, &v);
    if (!st) *out = (uint32_t)(uint64_t)v;
    return st;
}

/* Operand k: present, of type t, of rank `rank` (-1: any rank >= 1). */
static ta_status sig_operand(ctx_t *c, const ta_tensor *t, const char *role, ta_dtype type, int32_t rank) {
    if (!t) return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): the %s is missing", c->index, kname(c), role);
    if (t->dtype != type) return fail_type(c, role, t->dtype);
    if (rank >= 0 ? t->rank != rank : t->rank < 1)
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): the %s has rank %d", c->index, kname(c), role, t->rank);
    return TA_OK;
}

static ta_status prep_sig_window(ctx_t *c) {
    ta_status st = need_io(c, 2, 2, 1);
    const ta_tensor *in = in_t(c, 0), *w = in_t(c, 1), *out = out_t(c, 0);
    if (st || (st = sig_operand(c, in, "input", TA_DTYPE_INT16, -1)) ||
        (st = sig_operand(c, w, "weights", TA_DTYPE_INT16, 1)) || (st = sig_operand(c, out, "output", TA_DTYPE_INT16, in->rank)))
        return st;
    ta_signal_window_params *p = &c->od.u.sig_window;
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "shift", 0, 31, &p->shift))) return st;
    if (elems(in) != elems(out) || elems(w) < 1 || elems(in) % elems(w) || elems(in) > INT32_MAX)
        return fail(c, TA_E_MALFORMED, "input and output must be whole frames of the weights");
    p->size = (int32_t)elems(in);
    p->window = (int32_t)elems(w);
    return TA_OK;
}

static ta_status prep_sig_fft_auto_scale(ctx_t *c) {
    ta_status st = need_io(c, 1, 1, 2);
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0), *sb = out_t(c, 1);
    if (st || (st = sig_operand(c, in, "input", TA_DTYPE_INT16, 1)) || (st = sig_operand(c, out, "output", TA_DTYPE_INT16, 1)) ||
        (st = sig_operand(c, sb, "scale bits output", TA_DTYPE_INT32, 0)))
        return st;
    if (elems(in) != elems(out)) return fail(c, TA_E_MALFORMED, "output size differs from input");
    c->od.u.sig_count.n = (size_t)elems(in);
    return TA_OK;
}

static ta_status prep_sig_rfft(ctx_t *c) {
    ta_status st = need_io(c, 1, 1, 1);
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    if (st || (st = sig_operand(c, in, "input", TA_DTYPE_INT16, -1)) || (st = sig_operand(c, out, "output", TA_DTYPE_INT16, in->rank)))
        return st;
    ta_signal_rfft_params *p = &c->od.u.sig_rfft;
    ta_flex_ref map;
    int32_t type;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "T", INT32_MIN, INT32_MAX, &type)) ||
        (st = opt_i32(c, &map, "fft_length", 1, 1 << 24, &p->fft_length)))
        return st;
    if (type != 7) /* TFLite's TensorType_INT16 */
        return fail(c, TA_E_UNSUPPORTED, "only the int16 FFT (T = int16) has a kernel");
    const size_t table = ta_signal_rfft_table_count(p->fft_length);
    if (!table) return fail(c, TA_E_UNSUPPORTED, "fft_length must be 4 times a power of two, or twice one (radix 4 and 2)");
    p->input_length = in->shape[in->rank - 1];
    if (p->input_length < 1 || p->input_length > p->fft_length || elems(in) % p->input_length)
        return fail(c, TA_E_MALFORMED, "input frames do not fit fft_length");
    p->frames = (int32_t)(elems(in) / p->input_length);
    if (out->shape[out->rank - 1] != p->fft_length + 2 || elems(out) != (int64_t)p->frames * (p->fft_length + 2))
        return fail(c, TA_E_MALFORMED, "output must hold fft_length / 2 + 1 complex values per frame");
    int16_t *tw = take(&c->carve, table * sizeof(int16_t));
    if (tw) {
        if ((st = ta_signal_rfft_twiddles(p->fft_length, tw))) return fail(c, st, "cannot build the twiddles");
        p->twiddles = tw;
    }
    return TA_OK;
}

static ta_status prep_sig_energy(ctx_t *c) {
    ta_status st = need_io(c, 1, 1, 1);
    const ta_tensor *in = in_t(c, 0), *out = out_t(c, 0);
    if (st || (st = sig_operand(c, in, "input", TA_DTYPE_INT16, 1)) || (st = sig_operand(c, out, "output", TA_DTYPE_UINT32, 1)))
        return st;
    ta_signal_energy_params *p = &c->od.u.sig_energy;
    if (elems(in) % 2 || elems(out) != elems(in) / 2) return fail(c, TA_E_MALFORMED, "output must have one value per complex input");
    p->count = (int32_t)elems(out);
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "start_index", 0, p->count, &p->start)) ||
        (st = opt_i32(c, &map, "end_index", p->start, p->count, &p->end)))
        return st;
    return TA_OK;
}

static ta_status prep_sig_filter_bank(ctx_t *c) {
    ta_status st = need_io(c, 6, 6, 1);
    if (st || (st = sig_operand(c, in_t(c, 0), "input", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, out_t(c, 0), "output", TA_DTYPE_UINT64, 1)))
        return st;
    static const char *const roles[5] = {"weights", "unweights", "channel frequency starts", "channel weight starts",
                                         "channel widths"};
    for (uint32_t k = 1; k <= 5; k++)
        if ((st = sig_operand(c, in_t(c, k), roles[k - 1], TA_DTYPE_INT16, 1))) return st;
    ta_signal_filter_bank_params *p = &c->od.u.sig_fb;
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "num_channels", 0, 1 << 20, &p->num_channels))) return st;
    if (elems(out_t(c, 0)) != p->num_channels) return fail(c, TA_E_MALFORMED, "output size differs from num_channels");
    for (uint32_t k = 3; k <= 5; k++)
        if (elems(in_t(c, k)) < (int64_t)p->num_channels + 1)
            return fail(c, TA_E_MALFORMED, "channel tables need num_channels + 1 entries");
    p->input_size = (int32_t)elems(in_t(c, 0));
    const int64_t nw = elems(in_t(c, 1)), nu = elems(in_t(c, 2));
    p->weights_size = (int32_t)(nw < nu ? nw : nu);
    /* The tables must be constant (as TFLM's front end has them): every
     * band is checked here against the input and weight tables, so the
     * kernel never meets a band prepare did not prove in bounds. */
    const ta_signal_filter_bank_tables t = {in_t(c, 1)->data, in_t(c, 2)->data, in_t(c, 3)->data, in_t(c, 4)->data,
                                            in_t(c, 5)->data};
    if (!t.weights || !t.unweights || !t.freq_starts || !t.weight_starts || !t.widths)
        return fail(c, TA_E_UNSUPPORTED, "weight and channel tables must be constant");
    {
        for (uint32_t k = 1; k <= 5; k++)
            if (((uintptr_t)in_t(c, k)->data & 1u) != 0) return fail(c, TA_E_MALFORMED, "a table is misaligned");
        if (ta_signal_filter_bank_check(p, &t))
            return fail(c, TA_E_MALFORMED, "a channel's band or weights fall outside the input or weight tables");
    }
    return TA_OK;
}

static ta_status prep_sig_fb_sqrt(ctx_t *c) {
    ta_status st = need_io(c, 2, 2, 1);
    if (st || (st = sig_operand(c, in_t(c, 0), "input", TA_DTYPE_UINT64, 1)) ||
        (st = sig_operand(c, in_t(c, 1), "scale bits", TA_DTYPE_INT32, 0)) ||
        (st = sig_operand(c, out_t(c, 0), "output", TA_DTYPE_UINT32, 1)))
        return st;
    if (elems(in_t(c, 0)) != elems(out_t(c, 0))) return fail(c, TA_E_MALFORMED, "output size differs from input");
    c->od.u.sig_count.n = (size_t)elems(in_t(c, 0));
    return TA_OK;
}

static ta_status prep_sig_spectral_sub(ctx_t *c) {
    ta_status st = need_io(c, 1, 1, 2);
    if (st || (st = sig_operand(c, in_t(c, 0), "input", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, out_t(c, 0), "output", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, out_t(c, 1), "noise estimate output", TA_DTYPE_UINT32, 1)))
        return st;
    ta_signal_spectral_subtraction_params *p = &c->od.u.sig_ss;
    ta_flex_ref map;
    int64_t clamping;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "num_channels", 0, 1 << 20, &p->num_channels)) ||
        (st = opt_u32(c, &map, "smoothing", &p->smoothing)) ||
        (st = opt_u32(c, &map, "one_minus_smoothing", &p->one_minus_smoothing)) ||
        (st = opt_u32(c, &map, "alternate_smoothing", &p->alternate_smoothing)) ||
        (st = opt_u32(c, &map, "alternate_one_minus_smoothing", &p->alternate_one_minus_smoothing)) ||
        (st = opt_u32(c, &map, "min_signal_remaining", &p->min_signal_remaining)) ||
        (st = opt_int(c, &map, "clamping", INT64_MIN, INT64_MAX, &clamping)))
        return st;
    int32_t sb, ssb;
    if ((st = opt_i32(c, &map, "smoothing_bits", 0, 31, &sb)) ||
        (st = opt_i32(c, &map, "spectral_subtraction_bits", 0, 63, &ssb)))
        return st;
    p->smoothing_bits = (uint32_t)sb;
    p->spectral_subtraction_bits = (uint32_t)ssb;
    p->clamping = clamping != 0;
    if (elems(in_t(c, 0)) != p->num_channels || elems(out_t(c, 0)) != p->num_channels || elems(out_t(c, 1)) != p->num_channels)
        return fail(c, TA_E_MALFORMED, "input and outputs must have num_channels elements");
    c->state = (size_t)p->num_channels * sizeof(uint32_t); /* the noise estimates */
    return TA_OK;
}

static ta_status prep_sig_pcan(ctx_t *c) {
    ta_status st = need_io(c, 3, 3, 1);
    if (st || (st = sig_operand(c, in_t(c, 0), "input", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, in_t(c, 1), "noise estimate", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, in_t(c, 2), "gain table", TA_DTYPE_INT16, 1)) ||
        (st = sig_operand(c, out_t(c, 0), "output", TA_DTYPE_UINT32, 1)))
        return st;
    ta_signal_pcan_params *p = &c->od.u.sig_pcan;
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) || (st = opt_i32(c, &map, "snr_shift", 0, 63, &p->snr_shift))) return st;
    const int64_t n = elems(in_t(c, 0));
    if (n < 1 || elems(in_t(c, 1)) != n || elems(out_t(c, 0)) != n)
        return fail(c, TA_E_MALFORMED, "input, noise estimate and output sizes differ");
    if (elems(in_t(c, 2)) < 125) return fail(c, TA_E_MALFORMED, "gain table has fewer than 125 entries");
    p->num_channels = (int32_t)n;
    p->lut_size = (int32_t)elems(in_t(c, 2));
    return TA_OK;
}

static ta_status prep_sig_fb_log(ctx_t *c) {
    ta_status st = need_io(c, 1, 1, 1);
    if (st || (st = sig_operand(c, in_t(c, 0), "input", TA_DTYPE_UINT32, 1)) ||
        (st = sig_operand(c, out_t(c, 0), "output", TA_DTYPE_INT16, 1)))
        return st;
    ta_signal_filter_bank_log_params *p = &c->od.u.sig_log;
    ta_flex_ref map;
    if ((st = custom_options(c, &map)) ||
        (st = opt_i32(c, &map, "input_correction_bits", 0, 31, &p->input_correction_bits)) ||
        (st = opt_i32(c, &map, "output_scale", INT32_MIN, INT32_MAX, &p->output_scale)))
        return st;
    if (elems(in_t(c, 0)) != elems(out_t(c, 0))) return fail(c, TA_E_MALFORMED, "output size differs from input");
    p->num_channels = (int32_t)elems(in_t(c, 0));
    return TA_OK;
}

static ta_status prep_signal(ctx_t *c, unsigned rk) {
    c->od.path = P_COPY;
    switch (rk) {
    case K_SIG_WINDOW: return prep_sig_window(c);
    case K_SIG_FFT_AUTO_SCALE: return prep_sig_fft_auto_scale(c);
    case K_SIG_RFFT: return prep_sig_rfft(c);
    case K_SIG_ENERGY: return prep_sig_energy(c);
    case K_SIG_FILTER_BANK: return prep_sig_filter_bank(c);
    case K_SIG_FB_SQRT: return prep_sig_fb_sqrt(c);
    case K_SIG_SPECTRAL_SUB: return prep_sig_spectral_sub(c);
    case K_SIG_PCAN: return prep_sig_pcan(c);
    default: return prep_sig_fb_log(c);
    }
}

ta_status ta__op_prepare(const ta_graph *g, uint32_t sg, uint32_t op_index, void *data,
                         size_t data_bytes, ta__op_info *info, ta_diag *diag) {
    if (!g || !info) return TA_E_INVALID_ARG;
    const ta_op *op = ta_graph_op(g, sg, op_index);
    if (!op) return ta_diag_set(diag, TA_E_INVALID_ARG, "op %u: no such op", op_index);
    if (data && ((uintptr_t)data & 7u)) return ta_diag_set(diag, TA_E_INVALID_ARG, "op %u: misaligned op data", op_index);
    ctx_t c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.sg = sg;
    c.index = op_index;
    c.op = op;
    c.diag = diag;
    c.carve.base = (uint8_t *)data;
    c.carve.cap = data_bytes;
    if (data) memset(data, 0, data_bytes); /* padding too: records compare byte for byte */
    const unsigned rk = record_kind(op);
    const field_set fs = fields_of(rk);
    const uint32_t n_io = op->n_inputs + op->n_outputs;
    uint8_t *rec = take(&c.carve, (HDR_WORDS + n_io + fs.words) * 4u);
    const size_t fixed_bytes = c.carve.used;
    c.od.kind = (uint16_t)rk;
    c.od.n_in = (uint16_t)op->n_inputs;
    c.od.n_out = (uint16_t)op->n_outputs;
    ta_status st = operands_ok(&c);
    if (st) return st;
    switch (op->kind) {
    case TA_OP_CONV_2D: st = prep_conv(&c); break;
    case TA_OP_DEPTHWISE_CONV_2D: st = prep_dwconv(&c); break;
    case TA_OP_FULLY_CONNECTED: st = prep_fc(&c); break;
    case TA_OP_ADD:
    case TA_OP_SUB: st = prep_addsub(&c); break;
    case TA_OP_MUL: st = prep_mul(&c); break;
    case TA_OP_AVERAGE_POOL_2D:
    case TA_OP_MAX_POOL_2D: st = prep_pool(&c); break;
    case TA_OP_MEAN: st = prep_mean(&c); break;
    case TA_OP_SOFTMAX: st = prep_softmax(&c); break;
    case TA_OP_LOGISTIC:
    case TA_OP_TANH: st = prep_act(&c); break;
    case TA_OP_QUANTIZE:
    case TA_OP_DEQUANTIZE: st = prep_quantize(&c); break;
    case TA_OP_RESHAPE:
    case TA_OP_SQUEEZE:
    case TA_OP_EXPAND_DIMS: st = prep_copy(&c); break;
    case TA_OP_PAD:
    case TA_OP_PADV2: st = prep_pad(&c); break;
    case TA_OP_TRANSPOSE: st = prep_transpose(&c); break;
    case TA_OP_CONCATENATION: st = prep_concat(&c); break;
    case TA_OP_STRIDED_SLICE: st = prep_slice(&c); break;
    case TA_OP_RESIZE_NEAREST_NEIGHBOR: st = prep_resize(&c); break;
    case TA_OP_TRANSPOSE_CONV: st = prep_tconv(&c); break;
    case TA_OP_LEAKY_RELU: st = prep_leaky(&c); break;
    case TA_OP_HARD_SWISH: st = prep_hswish(&c); break;
    case TA_OP_BATCH_MATMUL: st = prep_bmm(&c); break;
    case TA_OP_SVDF: st = prep_svdf(&c); break;
    case TA_OP_LSTM: st = prep_lstm(&c); break;
    case TA_OP_DIV: st = prep_div(&c); break;
    case TA_OP_MINIMUM:
    case TA_OP_MAXIMUM: st = prep_minmax(&c); break;
    case TA_OP_CAST: st = prep_cast(&c); break;
    default:
        if (rk >= K_SIGNAL) {
            st = prep_signal(&c, rk);
            break;
        }
        if (op->kind == TA_OP_CUSTOM || op->kind == TA_OP_OTHER)
            return ta_diag_set(diag, TA_E_UNSUPPORTED, "op %u (%s): no kernel for this op", op_index,
                               op->custom_name ? op->custom_name : ta_op_kind_str(op->kind));
        return ta_diag_set(diag, TA_E_UNSUPPORTED, "op %u (%s): no kernel for this op", op_index,
                           ta_op_kind_str(op->kind));
    }
    /* Everything a kind's prepare hands to a kernel helper comes from the
     * model: a helper's TA_E_INVALID_ARG (a scale or range it cannot take)
     * is the model's value, not the caller's mistake (the diag says which). */
    if (st == TA_E_INVALID_ARG) st = TA_E_UNSUPPORTED;
    if (st) return st;
    if (c.scratch > UINT32_MAX) return fail(&c, TA_E_UNSUPPORTED, "scratch above 4 GiB");
    if (c.state > UINT32_MAX) return fail(&c, TA_E_UNSUPPORTED, "op state above 4 GiB");
    if (c.carve.used > UINT32_MAX) return fail(&c, TA_E_UNSUPPORTED, "op record above 4 GiB");
    info->data_bytes = c.carve.used;
    info->scratch_bytes = c.scratch;
    info->state_bytes = c.state;
    info->table_bytes = c.carve.used - fixed_bytes;
    if (!data) return TA_OK;
    if (c.carve.used > data_bytes) return ta_diag_set(diag, TA_E_NO_MEMORY, "op %u: op data needs %zu bytes, has %zu", op_index, c.carve.used, data_bytes);
    wr32(rec, (uint32_t)rk | (uint32_t)c.od.path << 16);
    wr32(rec + 4, (uint32_t)op->n_inputs | (uint32_t)op->n_outputs << 16);
    wr32(rec + 8, (uint32_t)c.scratch);
    wr32(rec + 12, (uint32_t)fs.words);
    for (uint32_t k = 0; k < n_io; k++)
        wr32(rec + 4 * (HDR_WORDS + k), (uint32_t)(k < op->n_inputs ? op->inputs[k] : op->outputs[k - op->n_inputs]));
    if (!encode(&fs, &c.od, rec, c.carve.used, rec + 4 * (HDR_WORDS + n_io)))
        return fail(&c, TA_E_UNSUPPORTED, "a parameter does not fit its 32-bit record word");
    return TA_OK;
}

uint32_t ta__op_scratch_bytes(const void *rec) { return rec ? rd32((const uint8_t *)rec + 8) : 0; }

ta_op_kind ta__op_kind(const void *rec) {
    if (!rec) return TA_OP_OTHER;
    const unsigned rk = rd32((const uint8_t *)rec) & 0xFFFFu;
    return rk >= K_SIGNAL ? TA_OP_CUSTOM : rk < TA_OP_KIND_COUNT ? (ta_op_kind)rk : TA_OP_OTHER;
}

const char *ta__op_name(const void *rec) { return rec ? kind_name(rd32((const uint8_t *)rec) & 0xFFFFu) : "OTHER"; }

uint32_t ta__op_state_bytes(const void *rec) {
    if (!rec || (rd32((const uint8_t *)rec) & 0xFFFFu) != K_SIG_SPECTRAL_SUB) return 0;
    const uint8_t *r = (const uint8_t *)rec;
    const uint32_t w1 = rd32(r + 4), n_io = (w1 & 0xFFFFu) + (w1 >> 16);
    const int32_t channels = (int32_t)rd32(r + 4 * (HDR_WORDS + n_io)); /* the first params word */
    return channels > 0 ? (uint32_t)channels * 4u : 0u;
}

uint32_t ta__op_output(const void *rec, uint32_t k, int32_t *tensor) {
    if (!rec) return 0;
    const uint8_t *r = (const uint8_t *)rec;
    const uint32_t w1 = rd32(r + 4), n_in = w1 & 0xFFFFu, n_out = w1 >> 16;
    if (k < n_out && tensor) *tensor = (int32_t)rd32(r + 4 * (HDR_WORDS + n_in + k));
    return n_out;
}

/* The signal library's ops. */
static ta_status invoke_signal(const opdata *od, void *const *ptrs, void *state) {
    const int32_t *io = od->io;
    void *in[6] = {NULL, NULL, NULL, NULL, NULL, NULL}, *out[2] = {NULL, NULL};
    for (uint32_t k = 0; k < od->n_in && k < 6; k++) in[k] = io[k] >= 0 ? ptrs[io[k]] : NULL;
    for (uint32_t k = 0; k < od->n_out && k < 2; k++) out[k] = io[od->n_in + k] >= 0 ? ptrs[io[od->n_in + k]] : NULL;
    switch (od->kind) {
    case K_SIG_WINDOW: return ta_kernel_signal_window(&od->u.sig_window, in[0], in[1], out[0]);
    case K_SIG_FFT_AUTO_SCALE: return ta_kernel_signal_fft_auto_scale(od->u.sig_count.n, in[0], out[0], out[1]);
    case K_SIG_RFFT: return ta_kernel_signal_rfft_s16(&od->u.sig_rfft, in[0], out[0]);
    case K_SIG_ENERGY: return ta_kernel_signal_energy(&od->u.sig_energy, in[0], out[0]);
    case K_SIG_FILTER_BANK: {
        const ta_signal_filter_bank_tables t = {in[1], in[2], in[3], in[4], in[5]};
        return ta_kernel_signal_filter_bank(&od->u.sig_fb, &t, in[0], out[0]);
    }
    case K_SIG_FB_SQRT:
        if (!in[1]) return TA_E_INVALID_ARG;
        return ta_kernel_signal_filter_bank_sqrt(od->u.sig_count.n, in[0], *(const int32_t *)in[1], out[0]);
    case K_SIG_SPECTRAL_SUB: return ta_kernel_signal_spectral_subtraction(&od->u.sig_ss, in[0], out[0], out[1], state);
    case K_SIG_PCAN: return ta_kernel_signal_pcan(&od->u.sig_pcan, in[0], in[1], in[2], out[0]);
    case K_SIG_FB_LOG: return ta_kernel_signal_filter_bank_log(&od->u.sig_log, in[0], out[0]);
    default: return TA_E_UNSUPPORTED;
    }
}

ta_status ta__op_invoke(const void *rec, void *const *ptrs, void *scratch, ta_diag *diag) {
    return ta__op_invoke_state(rec, ptrs, scratch, NULL, diag);
}

ta_status ta__op_invoke_state(const void *rec, void *const *ptrs, void *scratch, void *op_state, ta_diag *diag) {
    if (!rec || !ptrs) return TA_E_INVALID_ARG;
    opdata dec;
    decode((const uint8_t *)rec, &dec);
    const opdata *od = &dec;
    const size_t scratch_bytes = od->scratch_bytes;
    const int32_t *io = od->io;
    void *in0 = io[0] >= 0 ? ptrs[io[0]] : NULL;
    void *in1 = od->n_in > 1 && io[1] >= 0 ? ptrs[io[1]] : NULL;
    void *in2 = od->n_in > 2 && io[2] >= 0 ? ptrs[io[2]] : NULL;
    void *out = ptrs[io[od->n_in]];
    ta_status st = TA_E_UNSUPPORTED;
    switch (od->kind) {
    case TA_OP_CONV_2D:
        st = od->path == P_S8        ? ta_kernel_conv2d_s8(&od->u.conv, in0, in1, in2, out)
             : od->path == P_S16     ? ta_kernel_conv2d_s16(&od->u.conv, in0, in1, in2, out)
             : od->path == P_S16_B32 ? ta_kernel_conv2d_s16_b32(&od->u.conv, in0, in1, in2, out)
                                     : ta_kernel_conv2d_f32(&od->u.conv, in0, in1, in2, out);
        break;
    case TA_OP_DEPTHWISE_CONV_2D:
        st = od->path == P_S8 ? ta_kernel_depthwise_conv2d_s8(&od->u.dw, in0, in1, in2, out)
                              : ta_kernel_depthwise_conv2d_f32(&od->u.dw, in0, in1, in2, out);
        break;
    case TA_OP_FULLY_CONNECTED:
        st = od->path == P_S8 ? ta_kernel_fully_connected_s8(&od->u.fc, in0, in1, in2, out)
                              : ta_kernel_fully_connected_f32(&od->u.fc, in0, in1, in2, out);
        break;
    case TA_OP_ADD:
        st = od->path == P_S8    ? ta_kernel_add_s8(&od->u.as, in0, in1, out)
             : od->path == P_S32 ? ta_kernel_add_s32(&od->u.as, in0, in1, out)
             : od->path == P_S16 ? ta_kernel_add_s16(&od->u.as, in0, in1, out)
                                 : ta_kernel_add_f32(&od->u.as, in0, in1, out);
        break;
    case TA_OP_SUB:
        st = od->path == P_S8    ? ta_kernel_sub_s8(&od->u.as, in0, in1, out)
             : od->path == P_S16 ? ta_kernel_sub_s16(&od->u.as, in0, in1, out)
                                 : ta_kernel_sub_f32(&od->u.as, in0, in1, out);
        break;
    case TA_OP_MUL:
        st = od->path == P_S8    ? ta_kernel_mul_s8(&od->u.mul, in0, in1, out)
             : od->path == P_S32 ? ta_kernel_mul_s32(&od->u.mul, in0, in1, out)
                                 : ta_kernel_mul_f32(&od->u.mul, in0, in1, out);
        break;
    case TA_OP_AVERAGE_POOL_2D:
        st = od->path == P_S8 ? ta_kernel_avg_pool_s8(&od->u.pool, in0, out) : ta_kernel_avg_pool_f32(&od->u.pool, in0, out);
        break;
    case TA_OP_MAX_POOL_2D:
        st = od->path == P_S8 ? ta_kernel_max_pool_s8(&od->u.pool, in0, out) : ta_kernel_max_pool_f32(&od->u.pool, in0, out);
        break;
    case TA_OP_MEAN:
        st = od->path == P_S8 ? ta_kernel_mean_s8(&od->u.mean, in0, out, scratch, scratch_bytes)
                              : ta_kernel_mean_f32(&od->u.mean, in0, out);
        break;
    case TA_OP_SOFTMAX:
        st = od->path == P_S8 ? ta_kernel_softmax_s8(&od->u.sm, in0, out)
             : od->path == P_S8_S16 ? ta_kernel_softmax_s8_s16(&od->u.sm, in0, out)
                                    : ta_kernel_softmax_f32(&od->u.sm, in0, out);
        break;
    case TA_OP_LOGISTIC:
    case TA_OP_TANH: {
        const size_t n = od->u.act.count;
        if (od->path == P_S8) {
            st = od->kind == TA_OP_LOGISTIC ? ta_kernel_logistic_s8(&od->u.act.p, n, in0, out)
                                            : ta_kernel_tanh_s8(&od->u.act.p, n, in0, out);
        } else {
            st = od->kind == TA_OP_LOGISTIC ? ta_kernel_logistic_f32(n, in0, out) : ta_kernel_tanh_f32(n, in0, out);
        }
        break;
    }
    case TA_OP_QUANTIZE:
        st = od->path == P_F32 ? ta_kernel_quantize_f32(od->u.q.n, in0, od->u.q.scale, od->u.q.out_zp, od->u.q.out_type, out)
                               : ta_kernel_requantize(od->u.q.n, od->u.q.in_type, in0, od->u.q.in_zp, od->u.q.mult,
                                                      od->u.q.shift, od->u.q.out_type, od->u.q.out_zp, out);
        break;
    case TA_OP_DEQUANTIZE:
        st = ta_kernel_dequantize(od->u.q.n, od->u.q.in_type, in0, od->u.q.scale, od->u.q.in_zp, out);
        break;
    case TA_OP_RESHAPE:
    case TA_OP_SQUEEZE:
    case TA_OP_EXPAND_DIMS: st = ta_kernel_reshape(in0, out, od->u.copy.bytes); break;
    case TA_OP_PAD:
    case TA_OP_PADV2: st = ta_kernel_pad(&od->u.pad.p, in0, od->u.pad.value, out); break;
    case TA_OP_TRANSPOSE: st = ta_kernel_transpose(&od->u.tr, in0, out); break;
    case TA_OP_STRIDED_SLICE: st = ta_kernel_strided_slice(&od->u.sl, in0, out); break;
    case TA_OP_RESIZE_NEAREST_NEIGHBOR: st = ta_kernel_resize_nearest(&od->u.rs, in0, out); break;
    case TA_OP_TRANSPOSE_CONV: {
        void *in3 = od->n_in > 3 && io[3] >= 0 ? ptrs[io[3]] : NULL;
        st = od->path == P_S8    ? ta_kernel_transpose_conv_s8(&od->u.tconv, in2, in1, in3, out, scratch, scratch_bytes)
             : od->path == P_S16 ? ta_kernel_transpose_conv_s16(&od->u.tconv, in2, in1, in3, out, scratch, scratch_bytes)
                                 : ta_kernel_transpose_conv_f32(&od->u.tconv, in2, in1, in3, out);
        break;
    }
    case TA_OP_LEAKY_RELU: {
        const size_t n = od->u.leaky.count;
        st = od->path == P_S8    ? ta_kernel_leaky_relu_s8(&od->u.leaky.p, n, in0, out)
             : od->path == P_S16 ? ta_kernel_leaky_relu_s16(&od->u.leaky.p, n, in0, out)
                                 : ta_kernel_leaky_relu_f32(&od->u.leaky.p, n, in0, out);
        break;
    }
    case TA_OP_HARD_SWISH:
        st = od->path == P_S8 ? ta_kernel_hard_swish_s8(&od->u.hswish.p, od->u.hswish.count, in0, out)
                              : ta_kernel_hard_swish_f32(od->u.hswish.count, in0, out);
        break;
    case TA_OP_BATCH_MATMUL:
        st = od->path == P_S8    ? ta_kernel_batch_matmul_s8(&od->u.bmm, in0, in1, out)
             : od->path == P_S16 ? ta_kernel_batch_matmul_s16(&od->u.bmm, in0, in1, out)
                                 : ta_kernel_batch_matmul_f32(&od->u.bmm, in0, in1, out);
        break;
    case TA_OP_SVDF: {
        void *in3 = io[3] >= 0 ? ptrs[io[3]] : NULL, *state = ptrs[io[4]];
        st = od->path == P_S8 ? ta_kernel_svdf_s8(&od->u.svdf, in0, in1, in2, in3, state, out, scratch, scratch_bytes)
                              : ta_kernel_svdf_s8_s8(&od->u.svdf, in0, in1, in2, in3, state, out, scratch, scratch_bytes);
        break;
    }
    case TA_OP_LSTM: {
        ta_lstm_tensors t;
        t.input = in0;
        for (int g = 0; g < 4; g++) {
            t.w_in[g] = ptrs[io[1 + g]];
            t.w_rec[g] = ptrs[io[5 + g]];
            t.bias[g] = io[12 + g] >= 0 ? ptrs[io[12 + g]] : NULL;
        }
        t.hidden = ptrs[io[18]];
        t.cell = ptrs[io[19]];
        t.output = out;
        st = ta_kernel_lstm_s8(&od->u.lstm, &t, scratch, scratch_bytes);
        break;
    }
    case TA_OP_CONCATENATION: {
        const void *ins[64];
        if (od->n_in > 64) return TA_E_UNSUPPORTED;
        for (uint32_t k = 0; k < od->n_in; k++) ins[k] = io[k] >= 0 ? ptrs[io[k]] : NULL;
        st = ta_kernel_concatenation(&od->u.cat, ins, out);
        break;
    }
    case TA_OP_DIV: st = ta_kernel_div_s32(&od->u.div, in0, in1, out); break;
    case TA_OP_MINIMUM: st = ta_kernel_minimum(&od->u.mm.shape, od->u.mm.type, in0, in1, out); break;
    case TA_OP_MAXIMUM: st = ta_kernel_maximum(&od->u.mm.shape, od->u.mm.type, in0, in1, out); break;
    case TA_OP_CAST: st = ta_kernel_cast(od->u.cast.n, od->u.cast.in_type, in0, od->u.cast.out_type, out); break;
    default:
        if (od->kind >= K_SIGNAL) st = invoke_signal(od, ptrs, op_state);
        break;
    }
    if (st) return ta_diag_set(diag, st, "%s kernel failed: %s", kind_name(od->kind), ta_status_str(st));
    return TA_OK;
}
