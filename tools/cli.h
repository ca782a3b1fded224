/* CLI helpers: the only code with FILE*, malloc and printf. */
#ifndef TA_CLI_H
#define TA_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tinyarena/lifetime.h"
#include "tinyarena/plan.h"

/* Exit codes: 0 ok, 1 bad input or failed operation, 2 usage error. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Prints "tinyarena: <message>\n" to stderr; returns CLI_FAIL. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Monotonic microseconds. */
uint64_t cli_now_us(void);
/* ta_clock_fn adapter for planner time limits. */
uint64_t cli_clock(void *ctx);

/* Largest file the CLI reads (models, buffer lists, inputs): 1 GiB. */
#define CLI_MAX_FILE_BYTES ((size_t)1 << 30)

/* Reads a whole regular file of at most `max` bytes into a malloc'ed
 * buffer, 16-byte aligned, NUL-terminated.  NULL on failure, with *why (if
 * why is non-NULL) a short reason: the OS error, "not a regular file" (FIFO,
 * device such as /dev/zero, directory) or the size limit. */
unsigned char *cli_read_file_max(const char *path, size_t max, size_t *len, const char **why);
/* cli_read_file_max with CLI_MAX_FILE_BYTES and no reason. */
unsigned char *cli_read_file(const char *path, size_t *len);

/* Writes a JSON string literal (with quotes, escaped). */
void cli_json_str(FILE *f, const char *s);
/* The patch stages (patch.h; patch_report.c): one "patch: ..." line (none
 * without stages), or the JSON member ` "patch": {...}` (null without). */
struct ta_patch_plan;
struct ta_arena_breakdown;
void cli_patch_text(FILE *f, const struct ta_patch_plan *p);
void cli_patch_json(FILE *f, const struct ta_patch_plan *p);
int cli_patch_json_str(char *buf, size_t cap, const struct ta_patch_plan *p);
/* The stages a runtime planning with `strategy` and at most pct% extra MACs
 * runs (out), and its breakdown (b); false with d on a failure. */
bool cli_patch_query(const unsigned char *model, size_t len, const char *strategy, uint32_t rewrites,
                     struct ta_align_rule rule, uint32_t pct, struct ta_patch_plan *out, struct ta_arena_breakdown *b,
                     ta_diag *d);

/* malloc that exits with a message on failure. */
void *cli_xmalloc(size_t n);
void *cli_xcalloc(size_t n, size_t size);

/* Parses a non-negative decimal integer (the whole string). */
bool cli_parse_u64(const char *s, uint64_t *out);
bool cli_parse_i64(const char *s, int64_t *out);

/* Queries an opened runtime, growing a malloc'ed work block until the query
 * fits (ta_runtime_query's two-phase protocol).  On TA_OK *work (*wb bytes)
 * is the block init needs; the caller frees it.  On failure *work is NULL
 * and d explains. */
struct ta_runtime;
struct ta_arena_breakdown;
ta_status cli_runtime_query(struct ta_runtime *rt, void **work, size_t *wb, struct ta_arena_breakdown *b,
                            ta_diag *d);

/* --align-rule R and --arch-align N (plan and run; issue 17). */
typedef struct cli_align_args {
    const char *rule;  /* tflm, dtype, arch or N; NULL: not given */
    uint64_t arch;     /* --arch-align: the arch rule's word (0: 4) */
    bool tflm_rules;   /* --rewrite none or --tflm-offline: TFLM's rules, so
                          TFLM's alignment unless --align-rule says otherwise */
} cli_align_args;
/* Consumes argv[*i] (and its value) when it is one of the two options:
 * 1 consumed, 0 not ours, -1 a bad value (printed; exit CLI_USAGE). */
int cli_align_arg(int argc, char **argv, int *i, cli_align_args *a);
/* The rule the arguments name: the default is arch (4), TFLM's rule with
 * tflm_rules.  False on a bad combination (printed). */
bool cli_align_resolve(const cli_align_args *a, ta_align_rule *out);

/* Sub-commands. */
int cmd_plan(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_ops(int argc, char **argv);
#endif
