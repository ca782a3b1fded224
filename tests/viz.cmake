# Pictures of a plan (--svg, --html, --timeline): well-formed, one rect per
# buffer at its planned offset, the CLI's numbers, 80 columns, and one
# headless-Chromium screenshot (kept in the build tree: viz/*.png).
add_test(NAME viz_check COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/viz_check.sh)
set_tests_properties(viz_check PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TINYARENA_VIZ_OUT=${CMAKE_BINARY_DIR}/viz"
  TIMEOUT 120)
