# Pictures of a plan (--svg, --html, --timeline): well-formed, one rect per
# buffer at its planned offset, the CLI's numbers, 80 columns, the firmware
# map with patch stages against --json and --header (a generated CNN,
# gen_conv_model, always; person_detect with the shared models), and one
# headless-Chromium screenshot (kept in the build tree: viz/*.png).
add_executable(gen_conv_model ${CMAKE_CURRENT_SOURCE_DIR}/gen_conv_model.c)
target_include_directories(gen_conv_model PRIVATE ${PROJECT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR})
add_test(NAME viz_check COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/viz_check.sh)
set_tests_properties(viz_check PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TINYARENA_GEN_CONV=$<TARGET_FILE:gen_conv_model>;TINYARENA_VIZ_OUT=${CMAKE_BINARY_DIR}/viz"
  TIMEOUT 120)
