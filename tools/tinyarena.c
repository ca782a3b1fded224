/* tinyarena: static memory planning for inference graphs.  Command dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f) {
    fprintf(f,
            "usage: tinyarena <command> [options]\n"
            "commands:\n"
            "  demo                     plan built-in example networks (no files needed)\n"
            "  plan --buffers FILE.csv  plan a buffer list (MiniMalloc CSV)\n"
            "  plan MODEL.tflite        plan a model's activations\n"
            "  run MODEL.tflite         run a model (TFLM-exact) in one arena\n"
            "  ops [--markdown]         the ops the runtime runs, their types, TFLM's list\n"
            "run `tinyarena <command> --help` for a command's options\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "plan")) return cmd_plan(argc - 1, argv + 1);
    if (!strcmp(cmd, "demo")) return cmd_demo(argc - 1, argv + 1);
    if (!strcmp(cmd, "run")) return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "ops")) return cmd_ops(argc - 1, argv + 1);
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return CLI_OK;
    }
    cli_error("unknown command '%s'", cmd);
    usage(stderr);
    return CLI_USAGE;
}
