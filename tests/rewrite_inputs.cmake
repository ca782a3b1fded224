# test_rewrite_inputs runs a generated LOGISTIC chain (gen_models.c, bounds.cmake).
target_link_libraries(test_rewrite_inputs PRIVATE ta_gen_models)
