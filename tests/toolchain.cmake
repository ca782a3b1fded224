# Issue 15: the TFLM offline-plan writer through the CLI.
add_test(NAME cli_tflm_offline COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_tflm_offline.sh)
set_tests_properties(cli_tflm_offline PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>"
  TIMEOUT 600)

# Issue 15: tinyarena as a package in a user's CMake project (install +
# find_package, add_subdirectory, pkg-config) and a Cortex-M cross build
# through the package.  Configures and builds tinyarena four times: slow.
add_test(NAME consumer COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/consumer.sh)
set_tests_properties(consumer PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_SRC=${PROJECT_SOURCE_DIR};TA_CMAKE=${CMAKE_COMMAND}"
  TIMEOUT 900)
