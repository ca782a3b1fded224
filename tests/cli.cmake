# CLI contract tests (shell scripts run against the built binary).
add_test(NAME cli_plan COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_plan.sh)
set_tests_properties(cli_plan PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TINYARENA_GEN=$<TARGET_FILE:gen_model>"
  TIMEOUT 600)

# The emitted budget-table header compiles and matches the library's plan.
if(TA_SANITIZE)
  set(TA_CHECK_CFLAGS "-fsanitize=address,undefined -fno-omit-frame-pointer")
else()
  set(TA_CHECK_CFLAGS "")
endif()
add_test(NAME header_check COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/header_check.sh)
set_tests_properties(header_check PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TA_CC=${CMAKE_C_COMPILER};TA_LIB=$<TARGET_FILE:tinyarena>;TINYARENA_SRC=${CMAKE_SOURCE_DIR};TA_CFLAGS=${TA_CHECK_CFLAGS}"
  TIMEOUT 600)
add_test(NAME cli_run COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_run.sh)
set_tests_properties(cli_run PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>"
  TIMEOUT 600)

# Every "done when" model runs from its emitted header, bit-exact with TFLM.
add_test(NAME header_run COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/header_run.sh)
set_tests_properties(header_run PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TINYARENA_HOSTILE=$<TARGET_FILE:test_hostile>;TA_CC=${CMAKE_C_COMPILER};TA_LIB=$<TARGET_FILE:tinyarena>;TINYARENA_SRC=${CMAKE_SOURCE_DIR};TA_CFLAGS=${TA_CHECK_CFLAGS}"
  TIMEOUT 900)

# The const blob is portable: a 32-bit build (cc -m32) runs the headers the
# CLI emits, bit-exact with TFLM (no sanitizers: 32-bit runtimes are optional).
add_test(NAME header_abi COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/header_abi.sh)
set_tests_properties(header_abi PROPERTIES
  ENVIRONMENT "TINYARENA_DATA=${TA_DATA};TINYARENA_CLI=$<TARGET_FILE:tinyarena_cli>;TA_CC=${CMAKE_C_COMPILER};TINYARENA_SRC=${CMAKE_SOURCE_DIR}"
  TIMEOUT 900)
