/* `tinyarena demo`: the design notes' comparison on networks built in code. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_plan.h"
#include "zoo.h"

typedef struct {
    const char *strategy;
    const char *note; /* the design notes' figure */
} noted;

static void demo_net(zoo_net *z, const noted *notes, size_t n_notes, size_t *arena_out) {
    model_plan mp;
    if (model_plan_build(&mp, &z->g, NULL, NULL, 0, z->g.name)) exit(CLI_FAIL);
    printf("== %s ==\n", z->g.name);
    model_plan_summary(stdout, &mp);
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.clock = cli_clock;
    static const char *const order[] = {"naive", "pingpong", "linear", "greedy", "best"};
    char b1[32];
    printf("%-10s %14s %10s %9s %7s   %s\n", "strategy", "arena_bytes", "MB", "vs_naive", "/bound", "design notes");
    ta_plan_result last;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        plan_outcome o = plan_report_run(ta_strategy_find(order[i]), mp.reqs, mp.n, &opt);
        if (o.st) {
            cli_error("%s: %s: %s", order[i], ta_status_str(o.st), o.diag.msg);
            exit(CLI_FAIL);
        }
        const char *note = "";
        for (size_t k = 0; k < n_notes; k++)
            if (!strcmp(notes[k].strategy, order[i])) note = notes[k].note;
        double save = 100.0 * (1.0 - (double)o.res.arena_bytes / (double)o.res.naive_bytes);
        printf("%-10s %14s %10.2f %8.1f%% %7.3f   %s\n", order[i], fmt_bytes(o.res.arena_bytes, b1),
               (double)o.res.arena_bytes / 1e6, save, (double)o.res.arena_bytes / (double)o.res.lower_bound_bytes, note);
        arena_out[i] = o.res.arena_bytes;
        last = o.res;
        free(o.offsets);
    }
    model_plan_peak(stdout, &mp, &last);
    model_plan_free(&mp);
}

int cmd_demo(int argc, char **argv) {
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: tinyarena demo\nplans MobileNetV2 (float32, int8) and the design notes' small CNN, "
               "built in code, with every strategy, next to the design notes' figures\n");
        return CLI_OK;
    }
    printf("tinyarena demo: networks built in code, TFLM's lifetime rules (16-byte alignment)\n\n");
    static const noted mnv2[] = {{"naive", "18.4 MB (no reuse)"}, {"pingpong", "6.8 MB (ping-pong)"},
                                 {"greedy", "2.85 MB (lifetime-greedy)"}};
    size_t f32[5], i8[5], cnn[5];
    zoo_net z;
    if (zoo_mobilenet_v2(&z, TA_DTYPE_FLOAT32)) return cli_error("building MobileNetV2 failed");
    demo_net(&z, mnv2, 3, f32);
    zoo_free(&z);
    printf("\n");
    if (zoo_mobilenet_v2(&z, TA_DTYPE_INT8)) return cli_error("building MobileNetV2 failed");
    demo_net(&z, mnv2, 3, i8);
    zoo_free(&z);
    printf("\n");
    static const noted small[] = {{"greedy", "~3.3 KB"}};
    if (zoo_small_cnn(&z)) return cli_error("building the small CNN failed");
    demo_net(&z, small, 1, cnn);
    zoo_free(&z);
    printf("\nwhere and why ours differ from the design notes:\n");
    printf("- no reuse: float32 %.1f MB vs 18.4 MB. We count all 67 activation tensors TFLite's layout\n"
           "  materialises, including every block's 6x expansion (13.4 MB) and depthwise output (9.2 MB).\n"
           "  Leaving the depthwise outputs out gives 19.0 MB, close to the notes' figure: the notes\n"
           "  appear to count fewer tensors, not a different network.\n",
           (double)f32[0] / 1e6);
    printf("- ping-pong: float32 %.2f MB vs 6.8 MB. Two buffers that each hold the largest tensor (the\n"
           "  112x112x96 expansion, 4.82 MB) already take 9.63 MB, so 6.8 MB cannot be a double buffer\n"
           "  for this network in float32. Ours reuses slots over the DAG: residual adds keep a block's\n"
           "  input alive across the block, so it needs a third slot.\n",
           (double)f32[1] / 1e6);
    printf("- lifetime-greedy: float32 %.2f MB, int8 %.2f MB vs 2.85 MB. Any float32 plan must hold the\n"
           "  4.82 MB expansion and the 1.20 MB depthwise output that reads it at the same step (the\n"
           "  lower bound, which greedy reaches). 2.85 MB is below that bound in float32 and above it\n"
           "  in int8, so it matches neither data type for this architecture.\n",
           (double)f32[3] / 1e6, (double)i8[3] / 1e6);
    printf("- small CNN: %zu B vs ~3.3 KB. 3.3 KB equals conv2's output plus pool2's output\n"
           "  (2,704 + 576 = 3,280 B). The real peak is earlier: pool1 reads conv1's 7,200 B output\n"
           "  while writing its own 1,800 B (1,808 B padded to 16), so no plan can go below 9,008 B.\n",
           cnn[3]);
    printf("- best equals greedy on these three: they are chains with short skips, where largest-first\n"
           "  already reaches the lower bound; best gains on branchy models and buffer lists.\n");
    return CLI_OK;
}
