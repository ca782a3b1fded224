# `tinyarena ops --markdown` is the README's supported-ops table.
add_test(NAME ops_table COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ops_table.sh)
set_tests_properties(ops_table PROPERTIES
  ENVIRONMENT "TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TINYARENA_SRC=${CMAKE_SOURCE_DIR}"
  TIMEOUT 60)
