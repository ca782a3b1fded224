#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "tinyarena/runtime.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cli_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tinyarena: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_FAIL;
}

uint64_t cli_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t cli_clock(void *ctx) {
    (void)ctx;
    return cli_now_us();
}

void *cli_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        cli_error("out of memory (%zu bytes)", n);
        exit(CLI_FAIL);
    }
    return p;
}

void *cli_xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        cli_error("out of memory (%zu x %zu bytes)", n, size);
        exit(CLI_FAIL);
    }
    return p;
}

unsigned char *cli_read_file_max(const char *path, size_t max, size_t *len, const char **why) {
    static char reason[96];
    const char *dummy;
    if (!why) why = &dummy;
    *why = "cannot open";
    /* stat first: opening a FIFO would block until a writer comes */
    struct stat pre;
    if (stat(path, &pre) == 0 && !S_ISREG(pre.st_mode)) {
        *why = S_ISDIR(pre.st_mode) ? "a directory, not a regular file" : "not a regular file";
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        *why = strerror(errno);
        return NULL;
    }
    /* Only regular files: a FIFO, a device such as /dev/zero or a directory
     * would block, never end, or fail late. */
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        *why = S_ISDIR(sb.st_mode) ? "a directory, not a regular file" : "not a regular file";
        fclose(f);
        return NULL;
    }
    if (sb.st_size < 0 || (uint64_t)sb.st_size > max) {
        snprintf(reason, sizeof reason, "%lld bytes, above the %zu-byte limit", (long long)sb.st_size, max);
        *why = reason;
        fclose(f);
        return NULL;
    }
    /* The size is a hint (the file may change while we read): read in
     * doubling chunks, never past max. */
    size_t cap = (size_t)sb.st_size + 1 < (1u << 16) ? (1u << 16) : (size_t)sb.st_size + 1, n = 0;
    unsigned char *buf = NULL;
    for (;;) {
        unsigned char *nb = NULL;
        if (posix_memalign((void **)&nb, 16, cap + 1) != 0) {
            free(buf);
            fclose(f);
            *why = "out of memory";
            return NULL;
        }
        if (buf) {
            memcpy(nb, buf, n);
            free(buf);
        }
        buf = nb;
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        if (n > max) {
            snprintf(reason, sizeof reason, "grew above the %zu-byte limit while being read", max);
            *why = reason;
            free(buf);
            fclose(f);
            return NULL;
        }
        cap = cap > max / 2 ? max + 1 : cap * 2;
    }
    bool err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        *why = "read error";
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

unsigned char *cli_read_file(const char *path, size_t *len) {
    return cli_read_file_max(path, CLI_MAX_FILE_BYTES, len, NULL);
}

void cli_json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

bool cli_parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s || *s == '-' || *s == '+') return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

bool cli_parse_i64(const char *s, int64_t *out) {
    /* plain decimal only: an optional '-' and digits (strtoll alone would
     * also take leading blanks and a '+') */
    if (!s || !*s) return false;
    for (const char *q = *s == '-' ? s + 1 : s; ; q++) {
        if (!*q) {
            if (q == s || (q == s + 1 && *s == '-')) return false;
            break;
        }
        if (*q < '0' || *q > '9') return false;
    }
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end) return false;
    *out = v;
    return true;
}

ta_status cli_runtime_query(struct ta_runtime *rt, void **work, size_t *wb, struct ta_arena_breakdown *b,
                            ta_diag *d) {
    *work = NULL;
    *wb = ta_runtime_work_bytes(rt);
    ta_status st = TA_E_NO_MEMORY;
    /* The first size is a guess; a query that does not fit says how much it needs. */
    for (int i = 0; i < 8 && st == TA_E_NO_MEMORY; i++) {
        free(*work);
        *work = cli_xmalloc(*wb ? *wb : 1);
        st = ta_runtime_query(rt, *work, *wb, b, d);
        if (st == TA_E_NO_MEMORY && b->work_bytes > *wb) *wb = b->work_bytes;
        else if (st == TA_E_NO_MEMORY) break;
    }
    if (st) {
        free(*work);
        *work = NULL;
    }
    return st;
}

int cli_align_arg(int argc, char **argv, int *i, cli_align_args *a) {
    const char *arg = argv[*i];
    const bool rule = !strcmp(arg, "--align-rule"), arch = !strcmp(arg, "--arch-align");
    if (!rule && !arch) return 0;
    if (*i + 1 >= argc) {
        cli_error("%s needs a value (see --help)", arg);
        return -1;
    }
    const char *v = argv[++*i];
    ta_align_rule r;
    ta_diag d;
    if (rule) {
        if (ta_align_rule_parse(v, 0, &r, &d)) {
            cli_error("--align-rule %s", d.msg + (strncmp(d.msg, "alignment rule ", 15) ? 0 : 15));
            return -1;
        }
        a->rule = v;
    } else {
        if (!cli_parse_u64(v, &a->arch) || !a->arch || a->arch > TA_ALIGN_RULE_MAX || (a->arch & (a->arch - 1))) {
            cli_error("--arch-align %s: need a power of two from 1 to %u", v, TA_ALIGN_RULE_MAX);
            return -1;
        }
    }
    return 1;
}

bool cli_align_resolve(const cli_align_args *a, ta_align_rule *out) {
    ta_diag d;
    if (a->arch && a->rule && strcmp(a->rule, "arch")) {
        cli_error("--arch-align goes with --align-rule arch (the default), not %s", a->rule);
        return false;
    }
    const char *r = a->rule ? a->rule : a->tflm_rules && !a->arch ? "tflm" : "arch";
    if (ta_align_rule_parse(r, (uint32_t)a->arch, out, &d)) {
        cli_error("--align-rule %s: %s", r, d.msg);
        return false;
    }
    return true;
}
