# test_runtime counts allocations by wrapping malloc/calloc/realloc at link
# time, to prove the runtime calls none from init to the end of invoke.
if(TARGET test_runtime)
  target_link_options(test_runtime PRIVATE "LINKER:--wrap=malloc,--wrap=calloc,--wrap=realloc")
endif()
