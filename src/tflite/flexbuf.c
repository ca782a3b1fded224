/*
 * FlexBuffers reader: verify once, then look values up (flexbuf.h).
 *
 * Every read goes through rd() with an explicit bounds check, so even the
 * lookups on an unverified ref stay inside the buffer.
 */
#include <string.h>

#include "tflite/flexbuf.h"

#define MAX_DEPTH 32

static int is_width(uint64_t w) { return w == 1 || w == 2 || w == 4 || w == 8; }

/* Little-endian unsigned integer of width w at p (caller checked bounds). */
static uint64_t rd_u(const uint8_t *p, unsigned w) {
    uint64_t v = 0;
    for (unsigned i = w; i-- > 0;) v = v << 8 | p[i];
    return v;
}

static int64_t rd_s(const uint8_t *p, unsigned w) {
    const uint64_t u = rd_u(p, w);
    if (w == 8) return (int64_t)u;
    const uint64_t sign = (uint64_t)1 << (8 * w - 1);
    return u & sign ? -(int64_t)((sign << 1) - u) : (int64_t)u;
}

/* [at, at + n) inside the buffer. */
static int in_bounds(const ta_flex_ref *r, size_t at, size_t n) { return at <= r->len && n <= r->len - at; }

static int inline_type(unsigned t) {
    return t == TA_FLEX_NULL || t == TA_FLEX_INT || t == TA_FLEX_UINT || t == TA_FLEX_FLOAT || t == TA_FLEX_BOOL;
}

static int typed_vector(unsigned t) {
    return (t >= TA_FLEX_VECTOR_INT && t <= TA_FLEX_VECTOR_STRING) || t == TA_FLEX_VECTOR_BOOL;
}

/* Elements of VECTOR_INT2 .. VECTOR_FLOAT4 (no size word). */
static size_t fixed_count(unsigned t) { return t >= TA_FLEX_VECTOR_INT2 && t <= TA_FLEX_VECTOR_FLOAT4 ? 2u + (t - TA_FLEX_VECTOR_INT2) / 3u : 0u; }

static int known_type(unsigned t) { return t <= TA_FLEX_BOOL || t == TA_FLEX_VECTOR_BOOL; }

/* The value stored at `pos` in a parent of width pw, with packed type byte
 * `packed`.  0 when the offset leaves the buffer. */
static int child(const ta_flex_ref *parent, size_t pos, unsigned pw, uint8_t packed, ta_flex_ref *out) {
    out->buf = parent->buf;
    out->len = parent->len;
    out->type = (uint8_t)(packed >> 2);
    if (!in_bounds(parent, pos, pw)) return 0;
    if (inline_type(out->type)) {
        out->at = pos;
        out->width = (uint8_t)pw;
        return 1;
    }
    const uint64_t off = rd_u(parent->buf + pos, pw);
    if (off > pos) return 0;
    out->at = pos - (size_t)off;
    out->width = (uint8_t)(1u << (packed & 3u));
    return 1;
}

/* The size word before a sized target (vector, map, string, blob). */
static int size_word(const ta_flex_ref *r, size_t *n) {
    if (r->at < r->width || !in_bounds(r, r->at - r->width, r->width)) return 0;
    const uint64_t v = rd_u(r->buf + r->at - r->width, r->width);
    if (v > r->len) return 0; /* no buffer holds more elements than bytes */
    *n = (size_t)v;
    return 1;
}

size_t ta_flex_size(const ta_flex_ref *r) {
    size_t n = 0;
    if (!r || !r->buf || !is_width(r->width)) return 0;
    if (fixed_count(r->type)) return fixed_count(r->type);
    if (r->type == TA_FLEX_MAP || r->type == TA_FLEX_VECTOR || typed_vector(r->type) || r->type == TA_FLEX_STRING ||
        r->type == TA_FLEX_BLOB)
        return size_word(r, &n) ? n : 0;
    return 0;
}

/* A NUL-terminated string starting at `at`. */
static int key_ok(const ta_flex_ref *r, size_t at) {
    return at < r->len && memchr(r->buf + at, 0, r->len - at) != NULL;
}

/* The keys vector of a map: its first key offset's position, width, count. */
static int map_keys(const ta_flex_ref *m, size_t *kat, unsigned *kw, size_t *kn) {
    const unsigned w = m->width;
    if (m->type != TA_FLEX_MAP || !is_width(w) || m->at < 3u * w || !in_bounds(m, m->at - 3u * w, 3u * w)) return 0;
    const size_t pos = m->at - 3u * w;
    const uint64_t off = rd_u(m->buf + pos, w), width = rd_u(m->buf + pos + w, w);
    if (off > pos || !is_width(width)) return 0;
    const ta_flex_ref keys = {m->buf, m->len, pos - (size_t)off, TA_FLEX_VECTOR_KEY, (uint8_t)width};
    size_t n;
    if (!size_word(&keys, &n) || n > SIZE_MAX / width || !in_bounds(&keys, keys.at, n * (size_t)width)) return 0;
    *kat = keys.at;
    *kw = (unsigned)width;
    *kn = n;
    return 1;
}

ta_status ta_flex_index(const ta_flex_ref *r, size_t i, ta_flex_ref *out) {
    if (!r || !out || !r->buf) return TA_E_INVALID_ARG;
    const unsigned w = r->width;
    if (!is_width(w)) return TA_E_MALFORMED;
    size_t n = fixed_count(r->type);
    const int untyped = r->type == TA_FLEX_VECTOR || r->type == TA_FLEX_MAP;
    if (!n && !untyped && !typed_vector(r->type)) return TA_E_MALFORMED;
    if (!n && !size_word(r, &n)) return TA_E_MALFORMED;
    if (i >= n) return TA_E_NOT_FOUND;
    if (n > SIZE_MAX / (w + 1u) || !in_bounds(r, r->at, n * w + (untyped ? n : 0))) return TA_E_MALFORMED;
    const size_t pos = r->at + i * w;
    uint8_t packed;
    if (untyped) {
        packed = r->buf[r->at + n * w + i];
    } else if (r->type == TA_FLEX_VECTOR_BOOL) {
        packed = (uint8_t)(TA_FLEX_BOOL << 2);
    } else if (r->type == TA_FLEX_VECTOR_KEY) {
        packed = (uint8_t)(TA_FLEX_KEY << 2);
    } else if (r->type == TA_FLEX_VECTOR_STRING) {
        packed = (uint8_t)(TA_FLEX_STRING << 2); /* the format's known quirk: size words of width 1 */
    } else {
        /* INT, UINT, FLOAT element kinds repeat with period 3 from VECTOR_INT */
        const unsigned base = r->type >= TA_FLEX_VECTOR_INT2 ? r->type - TA_FLEX_VECTOR_INT2 : r->type - TA_FLEX_VECTOR_INT;
        packed = (uint8_t)((TA_FLEX_INT + base % 3u) << 2);
    }
    if (!child(r, pos, w, packed, out)) return TA_E_MALFORMED;
    return TA_OK;
}

ta_status ta_flex_key_at(const ta_flex_ref *map, size_t i, const char **key) {
    if (!map || !key || !map->buf) return TA_E_INVALID_ARG;
    size_t kat, kn;
    unsigned kw;
    if (!map_keys(map, &kat, &kw, &kn)) return TA_E_MALFORMED;
    if (i >= kn) return TA_E_NOT_FOUND;
    const size_t pos = kat + i * kw;
    const uint64_t off = rd_u(map->buf + pos, kw);
    if (off > pos || !key_ok(map, pos - (size_t)off)) return TA_E_MALFORMED;
    *key = (const char *)(map->buf + pos - (size_t)off);
    return TA_OK;
}

ta_status ta_flex_map_find(const ta_flex_ref *map, const char *key, ta_flex_ref *out) {
    if (!map || !key || !out || !map->buf) return TA_E_INVALID_ARG;
    if (map->type != TA_FLEX_MAP) return TA_E_MALFORMED;
    size_t kat, kn, n;
    unsigned kw;
    if (!map_keys(map, &kat, &kw, &kn) || !size_word(map, &n) || n != kn) return TA_E_MALFORMED;
    for (size_t i = 0; i < n; i++) {
        const char *k;
        ta_status st = ta_flex_key_at(map, i, &k);
        if (st) return st;
        if (!strcmp(k, key)) return ta_flex_index(map, i, out);
    }
    return TA_E_NOT_FOUND;
}

ta_status ta_flex_int(const ta_flex_ref *r, int64_t *v) {
    if (!r || !v || !r->buf) return TA_E_INVALID_ARG;
    const unsigned w = r->width;
    if (!is_width(w) || !in_bounds(r, r->at, w)) return TA_E_MALFORMED;
    switch (r->type) {
    case TA_FLEX_INT:
    case TA_FLEX_INDIRECT_INT: *v = rd_s(r->buf + r->at, w); return TA_OK;
    case TA_FLEX_UINT:
    case TA_FLEX_INDIRECT_UINT:
    case TA_FLEX_BOOL: {
        const uint64_t u = rd_u(r->buf + r->at, w);
        if (u > (uint64_t)INT64_MAX) return TA_E_MALFORMED;
        *v = (int64_t)u;
        return TA_OK;
    }
    default: return TA_E_MALFORMED;
    }
}

/* ---- verification -------------------------------------------------------- */

typedef struct {
    size_t budget; /* element visits left */
    ta_diag *d;
} vctx;

static ta_status bad(vctx *v, const ta_flex_ref *r, const char *what) {
    return ta_diag_set(v->d, TA_E_MALFORMED, "flexbuffer: %s (value at byte %zu of %zu)", what, r->at, r->len);
}

static ta_status verify(vctx *v, const ta_flex_ref *r, unsigned depth) {
    if (depth > MAX_DEPTH) return bad(v, r, "nested too deeply");
    if (!v->budget--) return bad(v, r, "work limit reached (offsets alias too much)");
    const unsigned t = r->type, w = r->width;
    if (!known_type(t)) return bad(v, r, "unknown value type");
    if (!is_width(w)) return bad(v, r, "bad byte width");
    if (inline_type(t)) {
        if (!in_bounds(r, r->at, w)) return bad(v, r, "scalar past the end");
        if (t == TA_FLEX_FLOAT && w < 4) return bad(v, r, "float narrower than 32 bits");
        return TA_OK;
    }
    switch (t) {
    case TA_FLEX_KEY: return key_ok(r, r->at) ? TA_OK : bad(v, r, "key without its terminating NUL");
    case TA_FLEX_STRING:
    case TA_FLEX_BLOB: {
        size_t n;
        if (!size_word(r, &n)) return bad(v, r, "size word out of bounds");
        if (!in_bounds(r, r->at, n + (t == TA_FLEX_STRING))) return bad(v, r, "string or blob past the end");
        if (t == TA_FLEX_STRING && r->buf[r->at + n] != 0) return bad(v, r, "string without its terminating NUL");
        return TA_OK;
    }
    case TA_FLEX_INDIRECT_INT:
    case TA_FLEX_INDIRECT_UINT:
    case TA_FLEX_INDIRECT_FLOAT:
        if (!in_bounds(r, r->at, w)) return bad(v, r, "indirect scalar past the end");
        if (t == TA_FLEX_INDIRECT_FLOAT && w < 4) return bad(v, r, "float narrower than 32 bits");
        return TA_OK;
    default: break;
    }
    /* vectors and maps */
    const int untyped = t == TA_FLEX_VECTOR || t == TA_FLEX_MAP;
    size_t n = fixed_count(t);
    if (!n && !size_word(r, &n)) return bad(v, r, "vector size word out of bounds");
    if (n > SIZE_MAX / (w + 1u) || !in_bounds(r, r->at, n * w + (untyped ? n : 0))) return bad(v, r, "vector past the end");
    if (n > v->budget) return bad(v, r, "work limit reached (offsets alias too much)");
    if (t == TA_FLEX_MAP) {
        size_t kat, kn;
        unsigned kw;
        if (!map_keys(r, &kat, &kw, &kn)) return bad(v, r, "map keys out of bounds");
        if (kn != n) return bad(v, r, "map has a different number of keys and values");
        for (size_t i = 0; i < n; i++) {
            const char *k;
            if (ta_flex_key_at(r, i, &k)) return bad(v, r, "map key out of bounds or not terminated");
        }
    }
    if ((t == TA_FLEX_VECTOR_FLOAT || (t >= TA_FLEX_VECTOR_INT2 && t <= TA_FLEX_VECTOR_FLOAT4 &&
                                       (t - TA_FLEX_VECTOR_INT2) % 3u == 2u)) && w < 4)
        return bad(v, r, "float vector narrower than 32 bits");
    for (size_t i = 0; i < n; i++) {
        if (untyped) {
            const uint8_t packed = r->buf[r->at + n * w + i];
            if (!known_type(packed >> 2u)) return bad(v, r, "element of unknown type");
        }
        ta_flex_ref e;
        if (ta_flex_index(r, i, &e)) return bad(v, r, "element offset out of bounds");
        if (inline_type(e.type)) {
            if (e.type == TA_FLEX_FLOAT && w < 4) return bad(v, r, "float narrower than 32 bits");
            if (!v->budget--) return bad(v, r, "work limit reached (offsets alias too much)");
            continue;
        }
        ta_status st = verify(v, &e, depth + 1);
        if (st) return st;
    }
    return TA_OK;
}

ta_status ta_flex_root(const void *buf, size_t len, ta_flex_ref *root, ta_diag *d) {
    if (!buf || !root) return ta_diag_set(d, TA_E_INVALID_ARG, "flexbuffer: NULL argument");
    const uint8_t *p = (const uint8_t *)buf;
    if (len < 3) return ta_diag_set(d, TA_E_MALFORMED, "flexbuffer: %zu bytes is too short for a root", len);
    const unsigned w = p[len - 1];
    if (!is_width(w)) return ta_diag_set(d, TA_E_MALFORMED, "flexbuffer: root byte width %u is not 1, 2, 4 or 8", w);
    if (len < 2u + w) return ta_diag_set(d, TA_E_MALFORMED, "flexbuffer: %zu bytes is too short for a %u-byte root", len, w);
    const ta_flex_ref whole = {p, len, 0, TA_FLEX_VECTOR, (uint8_t)w};
    const uint8_t packed = p[len - 2];
    if (!known_type(packed >> 2u)) return ta_diag_set(d, TA_E_MALFORMED, "flexbuffer: root of unknown type %u", packed >> 2u);
    if (!child(&whole, len - 2u - w, w, packed, root))
        return ta_diag_set(d, TA_E_MALFORMED, "flexbuffer: root offset points before the buffer");
    vctx v = {4 * len + 16, d};
    return verify(&v, root, 0);
}
