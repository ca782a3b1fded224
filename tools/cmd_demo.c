/* `tinyarena demo`: placeholder until the built-in networks land. */
#include "cli.h"
int cmd_demo(int argc, char **argv) {
    (void)argc;
    (void)argv;
    return cli_error("demo: not yet available");
}
