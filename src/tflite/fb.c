/*
 * Bounds-checked FlatBuffers reading (see fb.h for the rules).
 *
 * Written from the published binary format description; the one idea is
 * that every position is a uint64_t computed from checked parts, compared
 * against len before any byte at it is touched.  Scalars are assembled byte
 * by byte, so no read ever depends on the host's alignment or endianness.
 */
#include "tflite/fb.h"

#include <string.h>

/* FlatBuffers caps buffers (and so uoffsets) below 2 GiB. */
#define FB_MAX_UOFFSET 0x7fffffffu

uint16_t ta_fb_ld16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

uint32_t ta_fb_ld32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

uint64_t ta_fb_ld64(const uint8_t *p) {
    return (uint64_t)ta_fb_ld32(p) | ((uint64_t)ta_fb_ld32(p + 4) << 32);
}

static bool fail(ta_fb *fb, const char *why, uint64_t at) {
    fb->why = why;
    fb->at = at;
    return false;
}

/* True when [pos, pos + size) lies inside the buffer. */
static bool in_bounds(const ta_fb *fb, uint64_t pos, uint64_t size) {
    return pos <= (uint64_t)fb->len && size <= (uint64_t)fb->len - pos;
}

void ta_fb_init(ta_fb *fb, const void *p, size_t len, uint64_t work_limit) {
    memset(fb, 0, sizeof *fb);
    fb->p = (const uint8_t *)p;
    fb->len = p ? len : 0;
    fb->work_limit = work_limit;
    fb->why = "";
}

bool ta_fb_charge(ta_fb *fb, uint64_t units) {
    if (units > fb->work_limit - fb->work) return fail(fb, TA_FB_WORK_EXCEEDED, fb->work);
    fb->work += units;
    return true;
}

bool ta_fb_table_at(ta_fb *fb, uint64_t pos, ta_fb_table *t) {
    /* 1. the soffset: inside;  2. the vtable it points to: inside, a sane
     * header;  3. the table's inline bytes.  No alignment: every load here
     * is assembled byte by byte, and TFLM does not verify alignment either. */
    if (!ta_fb_charge(fb, 1)) return false;
    if (!in_bounds(fb, pos, 4)) return fail(fb, "table out of bounds", pos);
    int64_t so = (int32_t)ta_fb_ld32(fb->p + pos);
    int64_t vt = (int64_t)pos - so; /* |so| < 2^31 and pos < 2^63: no overflow */
    if (vt < 0 || !in_bounds(fb, (uint64_t)vt, 4)) return fail(fb, "vtable out of bounds", pos);
    uint16_t vt_size = ta_fb_ld16(fb->p + vt), size = ta_fb_ld16(fb->p + vt + 2);
    if (vt_size < 4 || vt_size % 2) return fail(fb, "bad vtable size", (uint64_t)vt);
    if (!in_bounds(fb, (uint64_t)vt, vt_size)) return fail(fb, "vtable out of bounds", (uint64_t)vt);
    if (size < 4) return fail(fb, "bad table size", pos);
    if (!in_bounds(fb, pos, size)) return fail(fb, "table out of bounds", pos);
    t->pos = (size_t)pos;
    t->vt = (size_t)vt;
    t->vt_size = vt_size;
    t->size = size;
    return true;
}

bool ta_fb_root(ta_fb *fb, const char *ident, ta_fb_table *root) {
    if (fb->len < 8) return fail(fb, "file too short for a header", fb->len);
    if (ident && memcmp(fb->p + 4, ident, 4) != 0) return fail(fb, "wrong file identifier", 4);
    uint32_t off = ta_fb_ld32(fb->p);
    if (off == 0 || off > FB_MAX_UOFFSET) return fail(fb, "bad root offset", 0);
    return ta_fb_table_at(fb, off, root);
}

/* Position of a scalar field of `size` bytes, or 0 when absent.  A field
 * must start after the soffset (offset >= 4) and end inside the table's
 * inline bytes.  Its alignment is not checked: it is read byte by byte. */
static bool field_pos(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint32_t size, uint64_t *pos) {
    *pos = 0;
    uint64_t entry = 4u + 2u * (uint64_t)slot;
    if (entry + 2 > t->vt_size) return true; /* older writer: slot beyond the vtable */
    uint16_t off = ta_fb_ld16(fb->p + t->vt + entry);
    if (off == 0) return true;
    if (off < 4 || (uint32_t)off + size > t->size) return fail(fb, "field outside its table", t->pos + off);
    *pos = (uint64_t)t->pos + off;
    return true;
}

bool ta_fb_u8(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint8_t def, uint8_t *out) {
    uint64_t p;
    if (!field_pos(fb, t, slot, 1, &p)) return false;
    *out = p ? fb->p[p] : def;
    return true;
}

bool ta_fb_i8(ta_fb *fb, const ta_fb_table *t, unsigned slot, int8_t def, int8_t *out) {
    uint8_t v;
    if (!ta_fb_u8(fb, t, slot, (uint8_t)def, &v)) return false;
    *out = (int8_t)v;
    return true;
}

bool ta_fb_bool(ta_fb *fb, const ta_fb_table *t, unsigned slot, bool def, bool *out) {
    uint8_t v;
    if (!ta_fb_u8(fb, t, slot, def ? 1 : 0, &v)) return false;
    *out = v != 0;
    return true;
}

bool ta_fb_u32(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint32_t def, uint32_t *out) {
    uint64_t p;
    if (!field_pos(fb, t, slot, 4, &p)) return false;
    *out = p ? ta_fb_ld32(fb->p + p) : def;
    return true;
}

bool ta_fb_i32(ta_fb *fb, const ta_fb_table *t, unsigned slot, int32_t def, int32_t *out) {
    uint32_t v;
    if (!ta_fb_u32(fb, t, slot, (uint32_t)def, &v)) return false;
    *out = (int32_t)v;
    return true;
}

bool ta_fb_u64(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint64_t def, uint64_t *out) {
    uint64_t p;
    if (!field_pos(fb, t, slot, 8, &p)) return false;
    *out = p ? ta_fb_ld64(fb->p + p) : def;
    return true;
}

bool ta_fb_f32(ta_fb *fb, const ta_fb_table *t, unsigned slot, float def, float *out) {
    uint64_t p;
    if (!field_pos(fb, t, slot, 4, &p)) return false;
    if (!p) {
        *out = def;
        return true;
    }
    uint32_t bits = ta_fb_ld32(fb->p + p);
    memcpy(out, &bits, sizeof *out);
    return true;
}

/* Follows the uoffset stored at byte `at` (already in bounds and aligned).
 * uoffsets are unsigned and point forward; zero would point at itself. */
static bool follow(ta_fb *fb, uint64_t at, uint64_t *target) {
    uint32_t u = ta_fb_ld32(fb->p + at);
    if (u == 0) return fail(fb, "offset points to itself", at);
    if (u > FB_MAX_UOFFSET) return fail(fb, "offset too large", at);
    uint64_t t = at + u;
    if (t >= fb->len) return fail(fb, "offset out of bounds", t);
    *target = t;
    return true;
}

/* Position of the uoffset field `slot`, or 0 when absent. */
static bool offset_field(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint64_t *target) {
    uint64_t p;
    *target = 0;
    if (!field_pos(fb, t, slot, 4, &p)) return false;
    if (!p) return true;
    return follow(fb, p, target);
}

bool ta_fb_table_field(ta_fb *fb, const ta_fb_table *t, unsigned slot, ta_fb_table *out,
                       bool *present) {
    uint64_t target;
    *present = false;
    if (!offset_field(fb, t, slot, &target)) return false;
    if (!target) return true;
    *present = true;
    return ta_fb_table_at(fb, target, out);
}

/* The vector whose count is at byte `at`.  A non-empty vector's count must
 * be 4-aligned: callers hand its 4-byte elements (indices, scales) to the
 * graph as typed pointers, and an int32_t or float pointer that is not
 * aligned is undefined behaviour in C.  An empty vector has no element to
 * point at, and FlatBuffers writers do not align it, so any position goes.
 * 8-byte elements may sit at 4 mod 8 (converters write int64 zero points
 * there); `aligned` tells the caller, who then copies instead of pointing. */
static bool vector_at(ta_fb *fb, uint64_t at, uint32_t elem, ta_fb_vec *out) {
    if (!in_bounds(fb, at, 4)) return fail(fb, "vector out of bounds", at);
    uint32_t n = ta_fb_ld32(fb->p + at);
    uint64_t data = at + 4;
    if (n && at % 4) return fail(fb, "misaligned vector", at);
    if (!in_bounds(fb, data, (uint64_t)n * elem)) return fail(fb, "vector out of bounds", at);
    out->pos = (size_t)data;
    out->n = n;
    out->elem = elem;
    out->present = true;
    out->aligned = n == 0 || data % elem == 0;
    return true;
}

bool ta_fb_vector(ta_fb *fb, const ta_fb_table *t, unsigned slot, uint32_t elem, ta_fb_vec *out) {
    uint64_t target;
    memset(out, 0, sizeof *out);
    out->elem = elem;
    if (!offset_field(fb, t, slot, &target)) return false;
    if (!target) return true;
    return vector_at(fb, target, elem, out);
}

bool ta_fb_string(ta_fb *fb, const ta_fb_table *t, unsigned slot, const char **s, uint32_t *n) {
    ta_fb_vec v;
    *s = NULL;
    if (n) *n = 0;
    if (!ta_fb_vector(fb, t, slot, 1, &v)) return false;
    if (!v.present) return true;
    /* The terminator must exist and be NUL so the name is a C string. */
    if (!in_bounds(fb, (uint64_t)v.pos + v.n, 1) || fb->p[v.pos + v.n] != 0)
        return fail(fb, "string not NUL-terminated", (uint64_t)v.pos - 4);
    *s = (const char *)(fb->p + v.pos);
    if (n) *n = v.n;
    return true;
}

bool ta_fb_vec_table(ta_fb *fb, const ta_fb_vec *v, uint32_t i, ta_fb_table *out) {
    uint64_t target;
    if (i >= v->n || v->elem != 4) return fail(fb, "vector index out of range", v->pos);
    if (!follow(fb, (uint64_t)v->pos + 4u * (uint64_t)i, &target)) return false;
    return ta_fb_table_at(fb, target, out);
}

int32_t ta_fb_vec_i32(const ta_fb *fb, const ta_fb_vec *v, uint32_t i) {
    return (int32_t)ta_fb_ld32(fb->p + v->pos + 4u * (size_t)i);
}

uint32_t ta_fb_vec_u32(const ta_fb *fb, const ta_fb_vec *v, uint32_t i) {
    return ta_fb_ld32(fb->p + v->pos + 4u * (size_t)i);
}

const void *ta_fb_vec_data(const ta_fb *fb, const ta_fb_vec *v) { return fb->p + v->pos; }
