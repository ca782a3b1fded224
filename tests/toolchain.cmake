# Issue 15: the TFLM offline-plan writer through the CLI.
add_test(NAME cli_tflm_offline COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_tflm_offline.sh)
set_tests_properties(cli_tflm_offline PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>"
  TIMEOUT 600)
