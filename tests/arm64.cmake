# Arm64 under qemu-user (tests/arm64.sh): the NEON dot products (SMULL and
# SDOT builds) against the reference kernels, and models end to end against
# TFLM's outputs.
add_test(NAME arm64 COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/arm64.sh)
set_tests_properties(arm64 PROPERTIES
  ENVIRONMENT "TINYARENA_SRC=${CMAKE_SOURCE_DIR};TINYARENA_DATA=${TA_DATA}"
  TIMEOUT 900)
