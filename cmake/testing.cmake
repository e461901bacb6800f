# lockcheck_test(NAME LABEL SOURCES... LIBS ...): a GoogleTest binary whose tests CTest sees one by one.
# Nothing when LOCKCHECK_BUILD_TESTS is off (callers that configure the target further check it themselves).
function(lockcheck_test name label)
  if(NOT LOCKCHECK_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name} PROPERTIES LABELS ${label} DISCOVERY_TIMEOUT 60)
  lockcheck_test_needs(${label} ${name})
endfunction()

# lockcheck_tests_subdirectory(DIR): add_subdirectory(DIR) when LOCKCHECK_BUILD_TESTS is on.
macro(lockcheck_tests_subdirectory dir)
  if(LOCKCHECK_BUILD_TESTS)
    add_subdirectory(${dir})
  endif()
endmacro()

# lockcheck_test_needs(LABEL TARGET...): tests with LABEL run TARGET, so `lockcheck_tests_LABEL` builds it.
# lockcheck_test does this itself; call it for tests added with plain add_test.
function(lockcheck_test_needs label)
  set_property(GLOBAL APPEND PROPERTY LOCKCHECK_TEST_TARGETS_${label} ${ARGN})
endfunction()

# Called once at the end of the top-level CMakeLists: one target per label (lockcheck_tests_unit, ...) that
# builds just what that label's tests run, so a sanitizer build need not build everything.
function(lockcheck_define_label_targets)
  foreach(label unit sim property redis)
    get_property(targets GLOBAL PROPERTY LOCKCHECK_TEST_TARGETS_${label})
    add_custom_target(lockcheck_tests_${label})
    if(targets)
      add_dependencies(lockcheck_tests_${label} ${targets})
    endif()
  endforeach()
endfunction()

# lockcheck_benchmark(NAME SOURCES... LIBS ...): a Google Benchmark binary; CTest runs it briefly as a smoke test.
# Nothing when LOCKCHECK_BUILD_BENCHMARKS is off.
function(lockcheck_benchmark name)
  if(NOT LOCKCHECK_BUILD_BENCHMARKS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} benchmark::benchmark)
  add_test(NAME ${name} COMMAND ${name} --benchmark_min_time=0.01)
  set_tests_properties(${name} PROPERTIES LABELS bench)
endfunction()
