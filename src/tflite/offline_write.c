/*
 * Writing a copy of a model with an "OfflineMemoryAllocation" metadata
 * entry (see tflite.h, ta_tflite_write_offline).
 *
 * A FlatBuffer is position-independent: every reference is relative (a
 * uoffset forward from where it is stored, a soffset from a table to its
 * vtable).  So the original file, copied unchanged behind a new prefix
 * whose length is a multiple of 16, stays valid and keeps every alignment
 * it had.  The prefix holds what changes: a new root Model table whose
 * fields point forward into the copy (operator codes, subgraphs,
 * description, ...), a new buffers vector (the old entries, then the
 * offsets buffer), a new metadata vector (the old entries minus any old
 * OfflineMemoryAllocation, then ours), and the new Buffer and Metadata
 * tables.  All of them point forward, as uoffsets must.  The only absolute
 * positions in a TFLite file are Buffer.offset (data kept after the
 * flatbuffer in large models); those are moved by the prefix length in the
 * copy.  The old Model table stays in the copy, unreferenced.
 */
#include <string.h>

#include "common/util.h"
#include "tflite/fb.h"
#include "tflite/schema_ids.h"
#include "tinyarena/tflite.h"

#define OFFLINE_NAME "OfflineMemoryAllocation"
#define MODEL_SLOTS 8 /* version .. signature_defs */

static void st32(uint8_t *p, size_t at, uint32_t v) {
    p[at] = (uint8_t)v;
    p[at + 1] = (uint8_t)(v >> 8);
    p[at + 2] = (uint8_t)(v >> 16);
    p[at + 3] = (uint8_t)(v >> 24);
}

static void st16(uint8_t *p, size_t at, uint16_t v) {
    p[at] = (uint8_t)v;
    p[at + 1] = (uint8_t)(v >> 8);
}

static size_t up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* Where things go in the prefix; computed once, written in a second pass. */
typedef struct layout {
    size_t vt, table, bufvec, mdvec, buf_vt, buf_table, md_vt, md_table, name, data, end;
    uint32_t n_buffers, n_md_keep; /* old buffers; old metadata entries kept */
} layout;

static void plan_layout(layout *l, uint32_t n_buffers, uint32_t n_md_keep, size_t n_offsets) {
    l->n_buffers = n_buffers;
    l->n_md_keep = n_md_keep;
    l->vt = 8;                               /* after the root offset and "TFL3" */
    l->table = up(l->vt + 4 + 2 * MODEL_SLOTS, 4);
    l->bufvec = up(l->table + 4 + 4 * MODEL_SLOTS, 4);
    l->mdvec = l->bufvec + 4 + 4 * ((size_t)n_buffers + 1);
    l->buf_vt = l->mdvec + 4 + 4 * ((size_t)n_md_keep + 1);
    l->buf_table = l->buf_vt + 8;            /* vtable: 4 + one slot (data), padded */
    l->md_vt = l->buf_table + 8;             /* table: soffset + data uoffset */
    l->md_table = l->md_vt + 8;              /* vtable: 4 + two slots (name, buffer) */
    l->name = l->md_table + 12;              /* table: soffset + name + buffer */
    /* the offsets vector: count at 12 mod 16 so the words start 16-aligned */
    size_t after_name = l->name + 4 + sizeof OFFLINE_NAME; /* count, chars, NUL */
    l->data = up(after_name + 4, 16) - 4;
    l->end = up(l->data + 4 + 12 + 4 * n_offsets, 16);
}

static bool is_offline_entry(ta_fb *fb, const ta_fb_vec *md, uint32_t i, bool *yes) {
    ta_fb_table t;
    *yes = false;
    const char *name;
    uint32_t n;
    if (!ta_fb_vec_table(fb, md, i, &t) || !ta_fb_string(fb, &t, TFL_METADATA_NAME, &name, &n)) return false;
    *yes = name && n == sizeof OFFLINE_NAME - 1 && memcmp(name, OFFLINE_NAME, n) == 0;
    return true;
}

ta_status ta_tflite_write_offline(const ta_tflite_model *m, const int32_t *offsets, size_t n_offsets, void *out,
                                  size_t cap, size_t *out_len, bool *replaced, ta_diag *d) {
    if (d) d->msg[0] = '\0';
    if (!m || !out_len || (!offsets && n_offsets)) return ta_diag_set(d, TA_E_INVALID_ARG, "NULL argument");
    if (!m->open) return ta_diag_set(d, TA_E_STATE, "model is not open");
    if ((uint64_t)n_offsets != m->n_tensors)
        return ta_diag_set(d, TA_E_INVALID_ARG, "%zu offsets for %llu tensors", n_offsets,
                           (unsigned long long)m->n_tensors);
    if (n_offsets > 0x3fffffffu) return ta_diag_set(d, TA_E_OVERFLOW, "too many tensors");
    for (size_t i = 0; i < n_offsets; i++)
        if (offsets[i] < -1) return ta_diag_set(d, TA_E_INVALID_ARG, "offset %zu is %d", i, (int)offsets[i]);

    /* The model opened, so every read below succeeds; check anyway. */
    ta_fb fb;
    ta_fb_table root;
    ta_fb_vec buffers, md;
    ta_fb_init(&fb, m->bytes, m->len, UINT64_MAX);
    if (!ta_fb_root(&fb, "TFL3", &root) || !ta_fb_vector(&fb, &root, TFL_MODEL_BUFFERS, 4, &buffers) ||
        !ta_fb_vector(&fb, &root, TFL_MODEL_METADATA, 4, &md))
        return ta_diag_set(d, TA_E_MALFORMED, "model: %s", fb.why);
    /* Fields past signature_defs would be a newer schema we cannot re-point. */
    for (unsigned s = MODEL_SLOTS; 4u + 2u * s + 2u <= root.vt_size; s++)
        if (ta_fb_ld16(m->bytes + root.vt + 4 + 2 * s))
            return ta_diag_set(d, TA_E_UNSUPPORTED, "model table has field %u, unknown to this writer", s);
    if (buffers.n >= 0x3fffffffu || md.n >= 0x3fffffffu) return ta_diag_set(d, TA_E_OVERFLOW, "too many buffers");
    uint32_t keep = 0;
    bool had = false;
    for (uint32_t i = 0; i < md.n; i++) {
        bool yes;
        if (!is_offline_entry(&fb, &md, i, &yes)) return ta_diag_set(d, TA_E_MALFORMED, "metadata %u: %s", i, fb.why);
        if (yes) had = true;
        else keep++;
    }
    if (replaced) *replaced = had;
    layout l;
    plan_layout(&l, buffers.n, keep, n_offsets);
    if (m->len > SIZE_MAX - l.end) return ta_diag_set(d, TA_E_OVERFLOW, "model too large");
    const size_t P = l.end, total = P + m->len;
    if (P + m->len > 0x7fffffffu) return ta_diag_set(d, TA_E_OVERFLOW, "output would pass 2 GiB");
    *out_len = total;
    if (!out || cap < total)
        return ta_diag_set(d, TA_E_NO_MEMORY, "output needs %zu bytes, has %zu", total, out ? cap : 0);

    uint8_t *o = (uint8_t *)out;
    memset(o, 0, P);
    memcpy(o + P, m->bytes, m->len);
    st32(o, 0, (uint32_t)l.table);
    memcpy(o + 4, "TFL3", 4);

    /* The Model: version copied, every offset field re-pointed into the copy
     * (buffers and metadata to the new vectors). */
    st16(o, l.vt, (uint16_t)(4 + 2 * MODEL_SLOTS));
    st16(o, l.vt + 2, (uint16_t)(4 + 4 * MODEL_SLOTS));
    st32(o, l.table, (uint32_t)(l.table - l.vt));
    for (unsigned s = 0; s < MODEL_SLOTS; s++) {
        const size_t field = l.table + 4 + 4 * s;
        uint16_t voff = 4u + 2u * s + 2u <= root.vt_size ? ta_fb_ld16(m->bytes + root.vt + 4 + 2 * s) : 0;
        size_t target = 0;
        if (s == TFL_MODEL_BUFFERS) {
            target = l.bufvec;
        } else if (s == TFL_MODEL_METADATA) {
            target = l.mdvec;
        } else if (voff) {
            const size_t at = root.pos + voff;
            if (s == TFL_MODEL_VERSION) {
                st32(o, field, ta_fb_ld32(m->bytes + at));
                st16(o, l.vt + 4 + 2 * s, (uint16_t)(field - l.table));
                continue;
            }
            target = P + at + ta_fb_ld32(m->bytes + at);
        }
        if (!target) continue;
        st32(o, field, (uint32_t)(target - field));
        st16(o, l.vt + 4 + 2 * s, (uint16_t)(field - l.table));
    }

    /* buffers: the old ones, then ours; large-model data offsets moved by P */
    st32(o, l.bufvec, buffers.n + 1);
    for (uint32_t i = 0; i < buffers.n; i++) {
        const size_t old_elem = buffers.pos + 4 * (size_t)i, elem = l.bufvec + 4 + 4 * (size_t)i;
        const size_t target = P + old_elem + ta_fb_ld32(m->bytes + old_elem);
        st32(o, elem, (uint32_t)(target - elem));
        ta_fb_table b;
        uint64_t off;
        if (!ta_fb_vec_table(&fb, &buffers, i, &b) || !ta_fb_u64(&fb, &b, TFL_BUFFER_OFFSET, 0, &off))
            return ta_diag_set(d, TA_E_MALFORMED, "buffer %u: %s", i, fb.why);
        if (off > 1) {
            const size_t at = P + b.pos + ta_fb_ld16(m->bytes + b.vt + 4 + 2 * TFL_BUFFER_OFFSET);
            const uint64_t moved = off + P;
            st32(o, at, (uint32_t)moved);
            st32(o, at + 4, (uint32_t)(moved >> 32));
        }
    }
    st32(o, l.bufvec + 4 + 4 * (size_t)buffers.n, (uint32_t)(l.buf_table - (l.bufvec + 4 + 4 * (size_t)buffers.n)));

    /* metadata: the old entries but an old offline plan, then ours */
    st32(o, l.mdvec, keep + 1);
    uint32_t k = 0;
    for (uint32_t i = 0; i < md.n; i++) {
        bool yes = false;
        if (!is_offline_entry(&fb, &md, i, &yes) || yes) continue; /* checked in the first pass */
        const size_t old_elem = md.pos + 4 * (size_t)i, elem = l.mdvec + 4 + 4 * (size_t)k++;
        st32(o, elem, (uint32_t)(P + old_elem + ta_fb_ld32(m->bytes + old_elem) - elem));
    }
    const size_t md_elem = l.mdvec + 4 + 4 * (size_t)keep;
    st32(o, md_elem, (uint32_t)(l.md_table - md_elem));

    /* Buffer { data: [ubyte] } */
    st16(o, l.buf_vt, 6);
    st16(o, l.buf_vt + 2, 8);
    st16(o, l.buf_vt + 4, 4);
    st32(o, l.buf_table, (uint32_t)(l.buf_table - l.buf_vt));
    st32(o, l.buf_table + 4, (uint32_t)(l.data - (l.buf_table + 4)));
    /* Metadata { name: string, buffer: uint } */
    st16(o, l.md_vt, 8);
    st16(o, l.md_vt + 2, 12);
    st16(o, l.md_vt + 4, 4);
    st16(o, l.md_vt + 6, 8);
    st32(o, l.md_table, (uint32_t)(l.md_table - l.md_vt));
    st32(o, l.md_table + 4, (uint32_t)(l.name - (l.md_table + 4)));
    st32(o, l.md_table + 8, buffers.n);
    st32(o, l.name, (uint32_t)(sizeof OFFLINE_NAME - 1));
    memcpy(o + l.name + 4, OFFLINE_NAME, sizeof OFFLINE_NAME); /* with its NUL */
    /* the words TFLM reads: version 0, subgraph count, n, then n offsets */
    st32(o, l.data, (uint32_t)(12 + 4 * n_offsets));
    st32(o, l.data + 4, 0);
    st32(o, l.data + 8, m->n_subgraphs);
    st32(o, l.data + 12, (uint32_t)n_offsets);
    for (size_t i = 0; i < n_offsets; i++) st32(o, l.data + 16 + 4 * i, (uint32_t)offsets[i]);
    return TA_OK;
}
