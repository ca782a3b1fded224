# The fast kernels' random-shape test run bare-metal on emulated Cortex-M
# (tests/kernels_mcu.sh): the DSP (M4F) and armv6-m paths the host never runs.
add_test(NAME kernels_mcu COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/kernels_mcu.sh)
set_tests_properties(kernels_mcu PROPERTIES
  ENVIRONMENT "TINYARENA_SRC=${CMAKE_SOURCE_DIR}"
  TIMEOUT 1200)
