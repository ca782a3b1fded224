/* The supported-ops table: every op definition of the library
 * (ta_op_list_all) with the input types it runs, beside the builtin ops
 * TFLM's op resolver registers.  `tinyarena ops` prints it; the README's
 * table is its --markdown output (tests/test_ops_table.c keeps them equal). */
#ifndef TA_TOOLS_OPS_TABLE_H
#define TA_TOOLS_OPS_TABLE_H
#include <stdbool.h>
#include <stdio.h>

/* markdown: the README table; else one line per op, "NAME TYPES TFLM". */
void ops_table_write(FILE *f, bool markdown);

/* The builtin ops TFLM's MicroMutableOpResolver can register (tflite-micro,
 * August 2026), sorted; *n their count. */
const char *const *ops_table_tflm_builtins(size_t *n);
#endif
