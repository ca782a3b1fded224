# tinyarena on emulated Cortex-M microcontrollers (examples/cortex_m): the
# runtime cross-compiled with arm-none-eabi-gcc, bare-metal firmware run in
# QEMU, outputs byte-identical to TFLM.  Needs the ARM toolchain and QEMU
# (scripts/setup.sh): SKIP without them outside CI, FAIL under CI.
add_test(NAME cortex_m COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cortex_m.sh)
set_tests_properties(cortex_m PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TINYARENA_SRC=${CMAKE_SOURCE_DIR};TINYARENA_HOSTILE=$<TARGET_FILE:test_hostile>;TINYARENA_BENCH_RUN=$<TARGET_FILE:bench_run>"
  TIMEOUT 2400) # about 7 minutes alone; a machine shared by several builds (load 20 on 2 cores) needed more than 10

