# plan --region and firmware-style runs across two memories from the header.
add_test(NAME cli_regions COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_regions.sh)
set_tests_properties(cli_regions PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TA_CC=${CMAKE_C_COMPILER};TA_LIB=$<TARGET_FILE:tinyarena>;TINYARENA_SRC=${CMAKE_SOURCE_DIR};TA_CFLAGS=${TA_CHECK_CFLAGS}"
  TIMEOUT 600)
