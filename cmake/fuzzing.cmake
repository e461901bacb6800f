# lockcheck_fuzzer(NAME SOURCES... LIBS... CORPUS dir): one fuzz target (LLVMFuzzerTestOneInput) beside the
# code it fuzzes, with its committed corpus (seeds and regression inputs).
#  - LOCKCHECK_FUZZ=ON (clang): a libFuzzer binary, part of `lockcheck_fuzzers`, and a CTest smoke run of a
#    bounded number of executions (label fuzz). New inputs go to the build tree, never into the source corpus.
#  - otherwise: NAME_replay runs every corpus file once through the same entry point (label unit), so every
#    regression input stays tested in the gcc and sanitizer builds too.
set(LOCKCHECK_FUZZ_RUNS 20000 CACHE STRING "Executions per fuzzer in the CTest smoke run")
set(LOCKCHECK_FUZZ_SECONDS 30 CACHE STRING "Time bound per fuzzer in the CTest smoke run")
# The smoke run's mutations follow one seed, so that CI replays them (0: libFuzzer draws one, as a long run
# looking for new inputs should).
set(LOCKCHECK_FUZZ_SEED 1 CACHE STRING "libFuzzer -seed of the CTest smoke run (0: random)")
if(LOCKCHECK_FUZZ)
  add_custom_target(lockcheck_fuzzers)
endif()

function(lockcheck_fuzzer name)
  cmake_parse_arguments(ARG "" "CORPUS" "SOURCES;LIBS" ${ARGN})
  if(NOT LOCKCHECK_FUZZ AND NOT LOCKCHECK_BUILD_TESTS)
    return()  # the replay binaries are tests
  endif()
  if(LOCKCHECK_FUZZ)
    add_executable(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PRIVATE ${ARG_LIBS})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    add_dependencies(lockcheck_fuzzers ${name})
    set(work_corpus ${CMAKE_CURRENT_BINARY_DIR}/${name}-corpus)
    file(MAKE_DIRECTORY ${work_corpus})
    add_test(NAME fuzz/${name}
      COMMAND ${name} -seed=${LOCKCHECK_FUZZ_SEED} -runs=${LOCKCHECK_FUZZ_RUNS} -max_total_time=${LOCKCHECK_FUZZ_SECONDS} -timeout=10
              -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/${name}-
              ${work_corpus} ${ARG_CORPUS})
    set_tests_properties(fuzz/${name} PROPERTIES LABELS fuzz TIMEOUT 300)
  else()
    add_executable(${name}_replay ${ARG_SOURCES} ${PROJECT_SOURCE_DIR}/lib/testing/fuzz_replay_main.cpp)
    target_link_libraries(${name}_replay PRIVATE ${ARG_LIBS})
    add_test(NAME fuzz_replay/${name} COMMAND ${name}_replay ${ARG_CORPUS})
    set_tests_properties(fuzz_replay/${name} PROPERTIES LABELS unit)
    lockcheck_test_needs(unit ${name}_replay)
  endif()
endfunction()
