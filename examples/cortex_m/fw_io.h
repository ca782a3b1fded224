/* The case's inputs in and the outputs out, the lines the test scripts
 * read (tests/cortex_m.sh): shared by main.c and main_regions.c. */
#ifndef CORTEX_M_FW_IO_H
#define CORTEX_M_FW_IO_H

#include <stdint.h>
#include <string.h>

#include "board.h"
#include "model_data.h"
#include "tinyarena/runtime.h"

/* Copies the case's inputs into the runtime's; 1 (with a line) when their
 * number or a size differs from the model's. */
static int fw_load_inputs(ta_runtime *rt) {
    if (ta_runtime_input_count(rt) != MODEL_DATA_INPUTS) {
        board_puts("the case has another number of inputs than the model\n");
        return 1;
    }
    for (uint32_t k = 0; k < MODEL_DATA_INPUTS; k++) {
        const ta_io *in = ta_runtime_input(rt, k);
        if (in->bytes != input_bytes[k]) {
            board_puts("an input has another size than the model's\n");
            return 1;
        }
        memcpy(in->data, input_data[k], in->bytes);
    }
    return 0;
}

/* "output<k> <bytes> <hex>" per output. */
static void fw_put_outputs(const ta_runtime *rt) {
    for (uint32_t k = 0; k < ta_runtime_output_count(rt); k++) {
        const ta_io *o = ta_runtime_output(rt, k);
        board_puts("output");
        board_put_u32(k);
        board_puts(" ");
        board_put_u32((uint32_t)o->bytes);
        board_puts(" ");
        board_put_hex(o->data, (uint32_t)o->bytes);
        board_puts("\n");
    }
}

#endif
