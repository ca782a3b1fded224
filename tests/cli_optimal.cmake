# CLI checks for `tinyarena plan --strategy optimal` on shared data.  At
# configure time this file registers the test; run with `cmake -P` (script
# mode) it performs the checks.
if(NOT CMAKE_SCRIPT_MODE_FILE)
  add_test(NAME cli_optimal
           COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:tinyarena_cli> -DDATA=${TA_DATA}
                   -P ${CMAKE_CURRENT_LIST_FILE})
  return()
endif()

set(lists "${DATA}/models/reference/tflm_buffers")
if(NOT EXISTS "${lists}" OR NOT EXISTS "${DATA}/planning")
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "FAIL: shared data directory '${DATA}' missing under CI")
  endif()
  message("SKIP: cli_optimal: shared data directory '${DATA}' not found")
  return()
endif()

function(expect what rc_want out pattern)
  if(NOT "${out}" MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: output does not match '${pattern}':\n${out}")
  endif()
endfunction()

# TFLM's list format, JSON fields
execute_process(COMMAND ${CLI} plan --buffers ${lists}/mlperf_tiny__vww_96_int8.csv --strategy optimal --json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vww: exit ${rc}: ${err}")
endif()
expect(vww 0 "${out}" "\"arena_bytes\": 55296")
expect(vww 0 "${out}" "\"optimal\": true")
expect(vww 0 "${out}" "\"gap_bytes\": 0")
expect(vww 0 "${out}" "\"proof\": \"proven optimal\"")

# MiniMalloc's format, table with the proof status
execute_process(COMMAND ${CLI} plan --buffers ${DATA}/planning/C.1048576.csv --strategy optimal --time-limit 60
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "C: exit ${rc}: ${err}")
endif()
expect(C 0 "${out}" "optimal +1,039,360 .* proven optimal")

# offline offsets that collide on purpose: one clear line, non-zero exit
execute_process(COMMAND ${CLI} plan --buffers ${lists}/tflm__person_detect_vela.csv --strategy optimal
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc EQUAL 0)
  message(FATAL_ERROR "vela: expected a non-zero exit")
endif()
expect(vela 1 "${err}" "^tinyarena: [^\n]*conflicting fixed offsets[^\n]*\n$")
