/* `tinyarena ops [--markdown]`: the ops this build runs and their types,
 * beside TFLM's builtin list (ops_table.h). */
#include <string.h>

#include "cli.h"
#include "ops_table.h"

int cmd_ops(int argc, char **argv) {
    bool markdown = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--markdown")) {
            markdown = true;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: tinyarena ops [--markdown]\n"
                   "  lists every op the runtime runs with its input types, beside TFLM's builtin ops\n"
                   "  --markdown  the table as in README.md\n");
            return CLI_OK;
        } else {
            cli_error("ops: unknown option '%s'", argv[i]);
            return CLI_USAGE;
        }
    }
    ops_table_write(stdout, markdown);
    return CLI_OK;
}
