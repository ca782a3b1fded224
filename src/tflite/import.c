/*
 * TFLite model -> graph IR.
 *
 * One walker does both phases.  ta_tflite_open() runs it with no graph: it
 * verifies every table, vector and string the import will touch, applies the
 * schema's rules (indices in range, known types and enums, sizes that do
 * not overflow) and counts what the graph will need.  ta_tflite_import()
 * runs the very same walker with a graph, adding tensors and ops as it goes.
 * Because both runs make the same reads and the same decisions, a model that
 * opened cannot fail the import on bounds or format, and there is only one
 * copy of every check.
 *
 * Walk order (each step needs the counts of the ones before it):
 *   1. header, root table, schema version;
 *   2. the top-level vectors (operator codes, subgraphs, buffers, metadata)
 *      and the description;
 *   3. every buffer (inline data vector, or external offset/size);
 *   4. every operator code (effective code = max of the two code fields);
 *   5. every subgraph: its tensors, its io lists, its operators;
 *   6. every metadata entry, and the OfflineMemoryAllocation table.
 *
 * Work: the FlatBuffers layer charges one unit per table it opens, and the
 * walker charges one per element of each scalar vector it iterates, against
 * a budget of 2 units per file byte (+4096).  The 30 real models spend at
 * most 0.07 units per byte (every table and element of an honest file
 * occupies at least 4 bytes of its own); only aliased offsets can spend
 * more, and those are cut off in time linear in the file size.
 */
#include "tflite/import.h"

/* ---- operators ---------------------------------------------------------- */

static ta_status act(rd *r, uint8_t v, ta_activation *out) {
    static const ta_activation k[] = {
        [TFL_ACT_NONE] = TA_ACT_NONE,   [TFL_ACT_RELU] = TA_ACT_RELU,
        [TFL_ACT_RELU_N1_TO_1] = TA_ACT_RELU_N1_TO_1, [TFL_ACT_RELU6] = TA_ACT_RELU6,
        [TFL_ACT_TANH] = TA_ACT_TANH,   [TFL_ACT_SIGN_BIT] = TA_ACT_SIGN_BIT,
    };
    if (v >= sizeof k / sizeof k[0])
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: unknown activation %u", ctx(r), (unsigned)v);
    *out = k[v];
    return TA_OK;
}

static ta_status padding(rd *r, uint8_t v, ta_padding *out) {
    if (v == TFL_PADDING_SAME) *out = TA_PAD_SAME;
    else if (v == TFL_PADDING_VALID) *out = TA_PAD_VALID;
    else return ta_diag_set(r->d, TA_E_MALFORMED, "%s: unknown padding %u", ctx(r), (unsigned)v);
    return TA_OK;
}

static ta_status out_type(rd *r, int8_t v, ta_dtype *out) {
    if (!ta__tfl_map_type(v, out))
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: unknown output type %d", ctx(r), (int)v);
    return TA_OK;
}

/* A subgraph index option: must name another subgraph of the model. */
static ta_status sg_ref(rd *r, int64_t v, uint32_t sg, int32_t *out) {
    if (v < 0 || v >= (int64_t)r->subgraphs.n || (uint64_t)v == sg)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: refers to subgraph %lld of %u", ctx(r),
                           (long long)v, r->subgraphs.n);
    *out = (int32_t)v;
    return TA_OK;
}

/* Dilation factors: the schema's default is 1 and TFLite's converters
 * never write less.  0 would make the effective filter one tap wide (TFLM
 * reads the same pixel for every tap), a negative one reads before the
 * window; neither is a convolution anyone meant, so both are refused. */
static ta_status dilations(rd *r, const ta_op_options *opt) {
    if (opt->dilation_w < 1 || opt->dilation_h < 1)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: dilation_w %d, dilation_h %d (both must be >= 1)", ctx(r),
                           opt->dilation_w, opt->dilation_h);
    return TA_OK;
}

/* Shorthands for option fields (slot, default). */
#define O_U8(slot, def, dst) FB(ta_fb_u8(fb, o, (slot), (def), (dst)), "builtin options")
#define O_I8(slot, def, dst) FB(ta_fb_i8(fb, o, (slot), (def), (dst)), "builtin options")
#define O_I32(slot, def, dst) FB(ta_fb_i32(fb, o, (slot), (def), (dst)), "builtin options")
#define O_BOOL(slot, def, dst) FB(ta_fb_bool(fb, o, (slot), (def), (dst)), "builtin options")
#define O_F32(slot, def, dst) FB(ta_fb_f32(fb, o, (slot), (def), (dst)), "builtin options")
#define O_ACT(slot) do { uint8_t a_; O_U8((slot), 0, &a_); TRY(act(r, a_, &opt->activation)); } while (0)
#define O_PAD(slot) do { uint8_t p_; O_U8((slot), 0, &p_); TRY(padding(r, p_, &opt->padding)); } while (0)
#define O_TYPE(slot) do { int8_t t_; O_I8((slot), 0, &t_); TRY(out_type(r, t_, &opt->out_dtype)); } while (0)

/* Parses the option table `o` of union type `type` into opt.  The table
 * layout follows the union type (that is what the bytes are), whatever the
 * operator code says; fields absent from the table take the schema's
 * defaults.  Types the IR has no fields for, and union types newer than this
 * reader, are accepted and not read: the FlatBuffers layer verified the
 * table's offset, nothing reads its fields, and the op keeps the IR's
 * defaults.  That is deliberate (a newer converter's options for an op we
 * only plan must not stop planning it), and harmless: every option value a
 * kernel uses is checked again by its prepare (strides, filter sizes,
 * dilations, axes, subgraph indices by the validator). */
static ta_status parse_options(rd *r, uint8_t type, const ta_fb_table *o, uint32_t sg,
                               ta_op_options *opt) {
    ta_fb *fb = &r->fb;
    int32_t a, b;
    uint32_t u;
    switch (type) {
    case TFL_OPT_CONV2D:
        O_PAD(0);
        O_I32(1, 0, &opt->stride_w);
        O_I32(2, 0, &opt->stride_h);
        O_ACT(3);
        O_I32(4, 1, &opt->dilation_w);
        O_I32(5, 1, &opt->dilation_h);
        TRY(dilations(r, opt));
        break;
    case TFL_OPT_DEPTHWISE_CONV2D:
        O_PAD(0);
        O_I32(1, 0, &opt->stride_w);
        O_I32(2, 0, &opt->stride_h);
        O_I32(3, 0, &opt->depth_multiplier);
        O_ACT(4);
        O_I32(5, 1, &opt->dilation_w);
        O_I32(6, 1, &opt->dilation_h);
        TRY(dilations(r, opt));
        break;
    case TFL_OPT_POOL2D:
        O_PAD(0);
        O_I32(1, 0, &opt->stride_w);
        O_I32(2, 0, &opt->stride_h);
        O_I32(3, 0, &opt->filter_w);
        O_I32(4, 0, &opt->filter_h);
        O_ACT(5);
        break;
    case TFL_OPT_TRANSPOSE_CONV:
        O_PAD(0);
        O_I32(1, 0, &opt->stride_w);
        O_I32(2, 0, &opt->stride_h);
        O_ACT(3);
        break;
    case TFL_OPT_SVDF:
        O_I32(0, 0, &opt->rank);
        O_ACT(1);
        O_BOOL(2, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_RNN:
        O_ACT(0);
        O_BOOL(1, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_SEQUENCE_RNN:
        O_BOOL(0, false, &opt->time_major);
        O_ACT(1);
        O_BOOL(2, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_FULLY_CONNECTED: {
        uint8_t wf;
        O_ACT(0);
        O_U8(1, 0, &wf);
        opt->fc_weights_format = wf;
        O_BOOL(2, false, &opt->keep_dims);
        O_BOOL(3, false, &opt->asymmetric_quantize_inputs);
        break;
    }
    case TFL_OPT_SOFTMAX: O_F32(0, 0.0f, &opt->beta); break;
    case TFL_OPT_CONCATENATION:
        O_I32(0, 0, &opt->axis);
        O_ACT(1);
        break;
    case TFL_OPT_ADD:
    case TFL_OPT_SUB:
    case TFL_OPT_MUL:
    case TFL_OPT_DIV:
    case TFL_OPT_L2NORM: O_ACT(0); break;
    case TFL_OPT_LSTM:
        O_ACT(0);
        O_F32(1, 0.0f, &opt->cell_clip);
        O_F32(2, 0.0f, &opt->proj_clip);
        O_BOOL(4, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_UNIDIRECTIONAL_SEQUENCE_LSTM:
        O_ACT(0);
        O_F32(1, 0.0f, &opt->cell_clip);
        O_F32(2, 0.0f, &opt->proj_clip);
        O_BOOL(3, false, &opt->time_major);
        O_BOOL(4, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_BIDIRECTIONAL_SEQUENCE_LSTM:
        O_ACT(0);
        O_F32(1, 0.0f, &opt->cell_clip);
        O_F32(2, 0.0f, &opt->proj_clip);
        O_BOOL(4, true, &opt->time_major);
        O_BOOL(5, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_RESIZE_BILINEAR:
        O_BOOL(2, false, &opt->align_corners);
        O_BOOL(3, false, &opt->half_pixel_centers);
        break;
    case TFL_OPT_RESIZE_NEAREST_NEIGHBOR:
        O_BOOL(0, false, &opt->align_corners);
        O_BOOL(1, false, &opt->half_pixel_centers);
        break;
    case TFL_OPT_CALL:
        FB(ta_fb_u32(fb, o, 0, 0, &u), "builtin options");
        TRY(sg_ref(r, u, sg, &opt->subgraph_a));
        break;
    case TFL_OPT_RESHAPE: {
        ta_fb_vec ns;
        FB(ta_fb_vector(fb, o, 0, 4, &ns), "reshape new_shape");
        if (!ns.present) break;
        if (ns.n > TA_MAX_RANK)
            return ta_diag_set(r->d, TA_E_UNSUPPORTED, "%s: reshape new_shape of rank %u exceeds %d",
                               ctx(r), ns.n, TA_MAX_RANK);
        FB(ta_fb_charge(fb, ns.n), "reshape new_shape");
        for (uint32_t k = 0; k < ns.n; k++) opt->new_shape[k] = ta_fb_vec_i32(fb, &ns, k);
        opt->new_shape_rank = (int32_t)ns.n;
        break;
    }
    case TFL_OPT_GATHER:
        O_I32(0, 0, &opt->axis);
        O_I32(1, 0, &opt->batch_dims);
        break;
    case TFL_OPT_ONE_HOT: O_I32(0, 0, &opt->axis); break;
    case TFL_OPT_SPACE_TO_DEPTH:
    case TFL_OPT_DEPTH_TO_SPACE: O_I32(0, 0, &opt->block_size); break;
    case TFL_OPT_MIRROR_PAD: {
        int8_t m;
        O_I8(0, 0, &m);
        opt->mirror_mode = m;
        break;
    }
    case TFL_OPT_CUMSUM:
        O_BOOL(0, false, &opt->exclusive);
        O_BOOL(1, false, &opt->reverse);
        break;
    case TFL_OPT_REDUCER: O_BOOL(0, false, &opt->keep_dims); break;
    case TFL_OPT_STRIDED_SLICE:
        O_I32(0, 0, &opt->begin_mask);
        O_I32(1, 0, &opt->end_mask);
        O_I32(2, 0, &opt->ellipsis_mask);
        O_I32(3, 0, &opt->new_axis_mask);
        O_I32(4, 0, &opt->shrink_axis_mask);
        O_BOOL(5, false, &opt->offset);
        break;
    case TFL_OPT_SPLIT:
    case TFL_OPT_SPLIT_V: O_I32(0, 0, &opt->num); break;
    case TFL_OPT_CAST: O_TYPE(1); break;
    case TFL_OPT_ARG_MAX:
    case TFL_OPT_ARG_MIN:
    case TFL_OPT_SHAPE: O_TYPE(0); break;
    case TFL_OPT_PACK:
    case TFL_OPT_UNPACK:
        O_I32(0, 0, &opt->num);
        O_I32(1, 0, &opt->axis);
        break;
    case TFL_OPT_LEAKY_RELU: O_F32(0, 0.0f, &opt->alpha); break;
    case TFL_OPT_BATCH_MATMUL:
        O_BOOL(0, false, &opt->adj_x);
        O_BOOL(1, false, &opt->adj_y);
        O_BOOL(2, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_IF:
    case TFL_OPT_WHILE:
        O_I32(0, 0, &a);
        O_I32(1, 0, &b);
        TRY(sg_ref(r, a, sg, &opt->subgraph_a));
        TRY(sg_ref(r, b, sg, &opt->subgraph_b));
        break;
    case TFL_OPT_CALL_ONCE:
        O_I32(0, 0, &a);
        TRY(sg_ref(r, a, sg, &opt->subgraph_a));
        break;
    case TFL_OPT_VAR_HANDLE: /* strings in the model bytes, NUL-checked */
        FB(ta_fb_string(fb, o, 0, &opt->container, NULL), "var_handle container");
        FB(ta_fb_string(fb, o, 1, &opt->shared_name, NULL), "var_handle shared_name");
        break;
    default: break;
    }
    return TA_OK;
}

static ta_status walk_op(rd *r, uint32_t sg, const ta_fb_vec *ops, uint32_t k, uint32_t n_tensors) {
    ta_fb *fb = &r->fb;
    ta_fb_table t, o;
    ta_fb_vec in, out, inter, copt;
    uint32_t opcode_index;
    uint8_t opt_type;
    bool has_opt;
    uint64_t big_off, big_size;
    ta__tfl_opcode oc;
    ta_op_desc od;
    ta_op_options opt = ta_op_options_default();
    memset(&od, 0, sizeof od);
    set_ctx(r, CTX_OP, k, sg);

    FB(ta_fb_vec_table(fb, ops, k, &t), "operator table");
    FB(ta_fb_u32(fb, &t, TFL_OP_OPCODE_INDEX, 0, &opcode_index), "opcode_index");
    if (opcode_index >= r->opcodes.n)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: opcode_index %u out of range (%u codes)",
                           ctx(r), opcode_index, r->opcodes.n);
    TRY(ta__tfl_index_list(r, &t, TFL_OP_INPUTS, "input", -1, n_tensors, &in));
    TRY(ta__tfl_index_list(r, &t, TFL_OP_OUTPUTS, "output", 0, n_tensors, &out));
    TRY(ta__tfl_index_list(r, &t, TFL_OP_INTERMEDIATES, "intermediate", -1, n_tensors, &inter));

    FB(ta_fb_u8(fb, &t, TFL_OP_BUILTIN_OPTIONS_TYPE, 0, &opt_type), "builtin_options_type");
    FB(ta_fb_table_field(fb, &t, TFL_OP_BUILTIN_OPTIONS, &o, &has_opt), "builtin_options");
    if (has_opt && opt_type != TFL_OPT_NONE) TRY(parse_options(r, opt_type, &o, sg, &opt));

    /* Custom options: inline bytes, or for models over 2 GB an external
     * range of the file (offset > 1, like Buffer.offset). */
    FB(ta_fb_vector(fb, &t, TFL_OP_CUSTOM_OPTIONS, 1, &copt), "custom_options");
    FB(ta_fb_u64(fb, &t, TFL_OP_LARGE_CUSTOM_OPTIONS_OFFSET, 0, &big_off), "large_custom_options_offset");
    FB(ta_fb_u64(fb, &t, TFL_OP_LARGE_CUSTOM_OPTIONS_SIZE, 0, &big_size), "large_custom_options_size");
    if (big_off > 1) {
        if (copt.n)
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: both inline and external custom options", ctx(r));
        if (big_size > fb->len || big_off > fb->len - big_size)
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: external custom options out of bounds (offset %llu, size "
                               "%llu, file %zu bytes)",
                               ctx(r), (unsigned long long)big_off, (unsigned long long)big_size,
                               fb->len);
        if (big_size) {
            od.custom_data = fb->p + big_off;
            od.custom_data_bytes = (size_t)big_size;
        }
    } else if (copt.n) {
        od.custom_data = ta_fb_vec_data(fb, &copt);
        od.custom_data_bytes = copt.n;
    }

    TRY(ta__tfl_read_opcode(r, opcode_index, &oc)); /* verified by ta__tfl_walk_opcodes already */
    od.builtin_code = oc.code;
    od.version = oc.version;
    if (oc.code == TFL_OP_CUSTOM) {
        od.kind = TA_OP_CUSTOM;
        od.custom_name = oc.custom_code;
    } else {
        od.kind = ta__tfl_map_kind(oc.code);
        if (od.kind == TA_OP_OTHER) {
            const char *nm = ta__tfl_builtin_name(oc.code);
            od.custom_name = nm ? nm : "UNKNOWN_BUILTIN";
        }
    }
    /* A control-flow op without an options table keeps subgraph_a/b = -1
     * ("none"), which ta_graph_validate accepts; any index given was checked
     * by parse_options.  The index lists are passed straight from the file:
     * they are 4-aligned little-endian int32 (checked) and the graph copies
     * them. */
    od.inputs = in.n ? (const int32_t *)ta_fb_vec_data(fb, &in) : NULL;
    od.n_inputs = in.n;
    od.outputs = out.n ? (const int32_t *)ta_fb_vec_data(fb, &out) : NULL;
    od.n_outputs = out.n;
    od.intermediates = inter.n ? (const int32_t *)ta_fb_vec_data(fb, &inter) : NULL;
    od.n_intermediates = inter.n;
    od.opt = &opt;

    r->n_ops++;
    r->n_indices += (uint64_t)in.n + out.n + inter.n;
    if (r->g) {
        ta_status st = ta_graph_add_op(r->g, &od, NULL);
        if (st) return graph_fail(r, st, "op");
    }
    return TA_OK;
}

/* ---- subgraphs ------------------------------------------------------------ */

static ta_status walk_subgraph(rd *r, uint32_t sg) {
    ta_fb *fb = &r->fb;
    ta_fb_table t;
    ta_fb_vec tensors, ops, in, out;
    const char *name;
    set_ctx(r, CTX_SUBGRAPH, sg, 0);
    FB(ta_fb_vec_table(fb, &r->subgraphs, sg, &t), "subgraph table");
    FB(ta_fb_string(fb, &t, TFL_SUBGRAPH_NAME, &name, NULL), "name");
    FB(ta_fb_vector(fb, &t, TFL_SUBGRAPH_TENSORS, 4, &tensors), "tensors");
    FB(ta_fb_vector(fb, &t, TFL_SUBGRAPH_OPERATORS, 4, &ops), "operators");
    if (tensors.n > 0x7fffffffu || ops.n > 0x7fffffffu)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: absurd tensor or operator count", ctx(r));
    TRY(ta__tfl_index_list(r, &t, TFL_SUBGRAPH_INPUTS, "input", 0, tensors.n, &in));
    TRY(ta__tfl_index_list(r, &t, TFL_SUBGRAPH_OUTPUTS, "output", 0, tensors.n, &out));
    r->n_indices += (uint64_t)in.n + out.n;

    if (r->g) {
        ta_status st = ta_graph_add_subgraph(r->g, name ? name : "", NULL);
        if (st) return graph_fail(r, st, "subgraph");
    }
    for (uint32_t i = 0; i < tensors.n; i++) TRY(ta__tfl_walk_tensor(r, sg, &tensors, i));
    for (uint32_t k = 0; k < ops.n; k++) TRY(walk_op(r, sg, &ops, k, tensors.n));
    if (r->g) {
        set_ctx(r, CTX_SUBGRAPH, sg, 0);
        ta_status st = ta_graph_set_io(r->g, in.n ? (const int32_t *)ta_fb_vec_data(fb, &in) : NULL,
                                       in.n, out.n ? (const int32_t *)ta_fb_vec_data(fb, &out) : NULL,
                                       out.n);
        if (st) return graph_fail(r, st, "inputs and outputs");
    }
    return TA_OK;
}

/* ---- metadata ---------------------------------------------------------------- */

static ta_status read_metadata(rd *r, uint32_t i, const char **name, const uint8_t **data,
                               size_t *bytes) {
    ta_fb_table t;
    uint32_t buf;
    FB(ta_fb_vec_table(&r->fb, &r->metadata, i, &t), "metadata table");
    FB(ta_fb_string(&r->fb, &t, TFL_METADATA_NAME, name, NULL), "name");
    if (!*name) *name = "";
    FB(ta_fb_u32(&r->fb, &t, TFL_METADATA_BUFFER, 0, &buf), "buffer index");
    if (buf >= r->buffers.n)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: buffer index %u out of range (%u buffers)",
                           ctx(r), buf, r->buffers.n);
    return ta__tfl_buffer_data(r, buf, data, bytes);
}

/* Checks an OfflineMemoryAllocation table: int32 words [format version 0,
 * a subgraph word, n, then n offsets].  TFLM documents the second word as
 * "the subgraph index the allocation applies to", Vela writes the number
 * of subgraphs (1) there, and TFLM ignores it; so do we.  What TFLM does
 * check is that n equals the model's total tensor count, which makes the
 * offsets one per tensor of every subgraph, in order. */
static ta_status read_offline(rd *r, const uint8_t *data, size_t bytes) {
    if (bytes < 12 || !aligned(data, 4))
        return ta_diag_set(r->d, TA_E_MALFORMED,
                           "%s: OfflineMemoryAllocation buffer too short or misaligned (%zu bytes)",
                           ctx(r), bytes);
    uint32_t version = ta_fb_ld32(data), n = ta_fb_ld32(data + 8);
    if (version != 0)
        return ta_diag_set(r->d, TA_E_UNSUPPORTED,
                           "%s: OfflineMemoryAllocation format version %u (expected 0)", ctx(r),
                           version);
    if ((uint64_t)n > (bytes - 12) / 4)
        return ta_diag_set(r->d, TA_E_MALFORMED,
                           "%s: OfflineMemoryAllocation claims %u offsets in %zu bytes", ctx(r), n,
                           bytes);
    if ((uint64_t)n != r->n_tensors)
        return ta_diag_set(r->d, TA_E_MALFORMED,
                           "%s: OfflineMemoryAllocation has %u offsets for %llu tensors", ctx(r), n,
                           (unsigned long long)r->n_tensors);
    FB(ta_fb_charge(&r->fb, n), "OfflineMemoryAllocation");
    for (uint32_t k = 0; k < n; k++) {
        int32_t v = (int32_t)ta_fb_ld32(data + 12 + 4 * (size_t)k);
        if (v < -1)
            return ta_diag_set(r->d, TA_E_MALFORMED, "%s: OfflineMemoryAllocation offset %u is %d",
                               ctx(r), k, v);
    }
    r->offline = (const int32_t *)(const void *)(data + 12);
    r->offline_count = n;
    return TA_OK;
}

static ta_status walk_metadata(rd *r) {
    for (uint32_t i = 0; i < r->metadata.n; i++) {
        const char *name;
        const uint8_t *data;
        size_t bytes;
        set_ctx(r, CTX_METADATA, i, 0);
        TRY(read_metadata(r, i, &name, &data, &bytes));
        if (strcmp(name, OFFLINE_METADATA_NAME) == 0) TRY(read_offline(r, data, bytes));
    }
    return TA_OK;
}

/* ---- the walk ---------------------------------------------------------------- */

static uint64_t work_limit_for(size_t len) { return 2u * (uint64_t)len + 4096u; }

static bool host_little_endian(void) {
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Steps 1-2: header, version, top-level vectors. */
static ta_status walk_root(rd *r) {
    ta_fb *fb = &r->fb;
    ta_fb_table root;
    set_ctx(r, CTX_MODEL, 0, 0);
    FB(ta_fb_root(fb, TFL_FILE_IDENTIFIER, &root), "header");
    FB(ta_fb_u32(fb, &root, TFL_MODEL_VERSION, 0, &r->version), "version");
    if (r->version != TFL_SCHEMA_VERSION)
        return ta_diag_set(r->d, TA_E_UNSUPPORTED, "model: schema version %u (expected %u)",
                           r->version, TFL_SCHEMA_VERSION);
    FB(ta_fb_vector(fb, &root, TFL_MODEL_OPERATOR_CODES, 4, &r->opcodes), "operator_codes");
    FB(ta_fb_vector(fb, &root, TFL_MODEL_SUBGRAPHS, 4, &r->subgraphs), "subgraphs");
    FB(ta_fb_vector(fb, &root, TFL_MODEL_BUFFERS, 4, &r->buffers), "buffers");
    FB(ta_fb_vector(fb, &root, TFL_MODEL_METADATA, 4, &r->metadata), "metadata");
    FB(ta_fb_string(fb, &root, TFL_MODEL_DESCRIPTION, &r->description, NULL), "description");
    if (!r->description) r->description = "";
    if (r->subgraphs.n == 0)
        return ta_diag_set(r->d, TA_E_MALFORMED, "model: no subgraphs");
    return TA_OK;
}

static ta_status walk(rd *r) {
    TRY(walk_root(r));
    TRY(ta__tfl_walk_buffers(r));
    TRY(ta__tfl_walk_opcodes(r));
    for (uint32_t sg = 0; sg < r->subgraphs.n; sg++) TRY(walk_subgraph(r, sg));
    TRY(walk_metadata(r));
    return TA_OK;
}

static void rd_init(rd *r, const uint8_t *p, size_t len, uint64_t work_limit, ta_graph *g,
                    ta_diag *d) {
    memset(r, 0, sizeof *r);
    ta_fb_init(&r->fb, p, len, work_limit);
    r->g = g;
    r->d = d;
}

ta_status ta_tflite_open(ta_tflite_model *m, const void *bytes, size_t len, ta_diag *d) {
    if (d) d->msg[0] = '\0';
    if (!m) return ta_diag_set(d, TA_E_INVALID_ARG, "model struct is NULL");
    memset(m, 0, sizeof *m);
    if (!bytes) return ta_diag_set(d, TA_E_INVALID_ARG, "model bytes are NULL");
    if (!aligned(bytes, 8))
        return ta_diag_set(d, TA_E_INVALID_ARG, "model bytes must be 8-byte aligned (address %% 8 = %u)",
                           (unsigned)((uintptr_t)bytes % 8));
    if (!host_little_endian())
        return ta_diag_set(d, TA_E_UNSUPPORTED, "the reader needs a little-endian host");
    rd r;
    rd_init(&r, bytes, len, work_limit_for(len), NULL, d);
    TRY(walk(&r));
    m->bytes = bytes;
    m->len = len;
    m->version = r.version;
    m->n_subgraphs = r.subgraphs.n;
    m->n_operator_codes = r.opcodes.n;
    m->n_buffers = r.buffers.n;
    m->n_metadata = r.metadata.n;
    m->n_tensors = r.n_tensors;
    m->n_ops = r.n_ops;
    m->n_indices = r.n_indices;
    m->n_dims = r.n_dims;
    m->n_words = r.n_words;
    m->const_bytes = r.const_bytes;
    m->work_limit = r.fb.work_limit;
    m->work_used = r.fb.work;
    m->description = r.description;
    m->offline = r.offline;
    m->offline_count = r.offline_count;
    m->open = true;
    return TA_OK;
}

ta_status ta_tflite_graph_limits(const ta_tflite_model *m, ta_graph_limits *lim) {
    if (!m || !lim) return TA_E_INVALID_ARG;
    if (!m->open) return TA_E_STATE;
    const uint64_t cap = 0x7fffffffu;
    if (m->n_tensors > cap || m->n_ops > cap || m->n_indices > cap || m->n_dims > cap ||
        m->n_words > cap)
        return TA_E_OVERFLOW;
    lim->subgraphs = m->n_subgraphs;
    lim->tensors = (uint32_t)m->n_tensors;
    lim->ops = (uint32_t)m->n_ops;
    lim->indices = (uint32_t)m->n_indices;
    lim->dims = (uint32_t)m->n_dims;
    lim->words = (uint32_t)m->n_words;
    return TA_OK;
}

ta_status ta_tflite_import(const ta_tflite_model *m, ta_graph *g, ta_diag *d) {
    if (d) d->msg[0] = '\0';
    if (!m || !g) return ta_diag_set(d, TA_E_INVALID_ARG, "model or graph is NULL");
    if (!m->open) return ta_diag_set(d, TA_E_STATE, "model is not open");
    if (g->n_subgraphs || g->n_tensors || g->n_ops)
        return ta_diag_set(d, TA_E_STATE, "graph is not empty");
    rd r;
    rd_init(&r, m->bytes, m->len, m->work_limit, g, d);
    TRY(walk(&r));
    g->name = r.description;
    ta_status st = ta_graph_validate(g, d);
    if (st) return st; /* cannot happen for a model that opened; kept as a guard */
    return TA_OK;
}

/* ---- accessors ---------------------------------------------------------------- */

/* Re-reads the top level of an open model (cheap: a handful of verified reads). */
static ta_status reopen(const ta_tflite_model *m, rd *r) {
    if (!m) return TA_E_INVALID_ARG;
    if (!m->open) return TA_E_STATE;
    rd_init(r, m->bytes, m->len, m->work_limit, NULL, NULL);
    return walk_root(r);
}

ta_status ta_tflite_get_info(const ta_tflite_model *m, ta_tflite_info *info) {
    if (!m || !info) return TA_E_INVALID_ARG;
    if (!m->open) return TA_E_STATE;
    memset(info, 0, sizeof *info);
    info->version = m->version;
    info->subgraphs = m->n_subgraphs;
    info->tensors = (uint32_t)TA_MIN(m->n_tensors, (uint64_t)UINT32_MAX);
    info->ops = (uint32_t)TA_MIN(m->n_ops, (uint64_t)UINT32_MAX);
    info->operator_codes = m->n_operator_codes;
    info->buffers = m->n_buffers;
    info->metadata = m->n_metadata;
    info->const_bytes = m->const_bytes;
    info->has_offline_offsets = m->offline != NULL;
    info->description = m->description ? m->description : "";
    return TA_OK;
}

const char *ta_tflite_description(const ta_tflite_model *m) {
    return m && m->open && m->description ? m->description : "";
}

ta_status ta_tflite_subgraph_size(const ta_tflite_model *m, uint32_t sg, uint32_t *n_tensors,
                                  uint32_t *n_ops) {
    rd r;
    TRY(reopen(m, &r));
    if (sg >= r.subgraphs.n) return TA_E_NOT_FOUND;
    ta_fb_table t;
    ta_fb_vec tv, ov;
    if (!ta_fb_vec_table(&r.fb, &r.subgraphs, sg, &t) ||
        !ta_fb_vector(&r.fb, &t, TFL_SUBGRAPH_TENSORS, 4, &tv) ||
        !ta_fb_vector(&r.fb, &t, TFL_SUBGRAPH_OPERATORS, 4, &ov))
        return TA_E_MALFORMED; /* not reachable after a successful open */
    if (n_tensors) *n_tensors = tv.n;
    if (n_ops) *n_ops = ov.n;
    return TA_OK;
}

ta_status ta_tflite_metadata(const ta_tflite_model *m, uint32_t i, const char **name,
                             const void **data, size_t *bytes) {
    rd r;
    TRY(reopen(m, &r));
    if (i >= r.metadata.n) return TA_E_NOT_FOUND;
    const char *nm;
    const uint8_t *p;
    size_t n;
    TRY(read_metadata(&r, i, &nm, &p, &n));
    if (name) *name = nm;
    if (data) *data = p;
    if (bytes) *bytes = n;
    return TA_OK;
}

ta_status ta_tflite_metadata_find(const ta_tflite_model *m, const char *name, const void **data,
                                  size_t *bytes) {
    if (!name) return TA_E_INVALID_ARG;
    rd r;
    TRY(reopen(m, &r));
    bool found = false;
    for (uint32_t i = 0; i < r.metadata.n; i++) {
        const char *nm;
        const uint8_t *p;
        size_t n;
        TRY(read_metadata(&r, i, &nm, &p, &n));
        if (strcmp(nm, name) == 0) {
            found = true;
            if (data) *data = p;
            if (bytes) *bytes = n;
        }
    }
    return found ? TA_OK : TA_E_NOT_FOUND;
}

ta_status ta_tflite_offline_offsets(const ta_tflite_model *m, uint32_t subgraph,
                                    const int32_t **offsets, uint32_t *count) {
    if (!m) return TA_E_INVALID_ARG;
    if (!m->open) return TA_E_STATE;
    if (!m->offline || subgraph >= m->n_subgraphs) return TA_E_NOT_FOUND;
    rd r;
    TRY(reopen(m, &r));
    /* The subgraph's slice starts after the tensors of the ones before it
     * (O(subgraph) verified reads). */
    uint64_t base = 0;
    uint32_t n = 0;
    for (uint32_t s = 0; s <= subgraph; s++) {
        ta_fb_table t;
        ta_fb_vec tv;
        base += n;
        if (!ta_fb_vec_table(&r.fb, &r.subgraphs, s, &t) ||
            !ta_fb_vector(&r.fb, &t, TFL_SUBGRAPH_TENSORS, 4, &tv))
            return TA_E_MALFORMED; /* not reachable after a successful open */
        n = tv.n;
    }
    if (base + n > m->offline_count) return TA_E_MALFORMED; /* open() ruled this out */
    if (offsets) *offsets = m->offline + base;
    if (count) *count = n;
    return TA_OK;
}
