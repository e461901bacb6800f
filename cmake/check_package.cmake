# The package test (CTest `package_install_and_consume`): run with -P and
#   -DBUILD_DIR=<lockcheck build> -DSOURCE_DIR=<repo> -DWORK_DIR=<scratch> -DCXX=<compiler> [-DLAUNCHER=ccache]
# 1. installs the build into WORK_DIR/prefix and checks that no internal header and no -Werror came along;
# 2. builds and runs lib/test/consumer with find_package(lockcheck), then with pkg-config;
# 3. configures the repository with every option off while only hiredis and fmt can be found, so the
#    library alone provably needs nothing else. It is not built again there: step 1 installed the same
#    library sources, and a second full library build would cost CI a minute.
cmake_minimum_required(VERSION 3.22)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${out}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(compiler_args -DCMAKE_CXX_COMPILER=${CXX})
if(LAUNCHER)
  list(APPEND compiler_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()

# 1. Install.
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(internal include/redis_server.hpp include/testing include/core include/redis include/lockcheck/testing)
  if(EXISTS ${prefix}/${internal})
    message(FATAL_ERROR "internal header path installed: ${internal}")
  endif()
endforeach()
foreach(public include/lockcheck/mutex.hpp include/lockcheck/public_types.hpp include/lockcheck/scripts.hpp
                include/lockcheck/broken/set_nx_ex_del.hpp)
  if(NOT EXISTS ${prefix}/${public})
    message(FATAL_ERROR "public header not installed: ${public}")
  endif()
endforeach()
file(GLOB_RECURSE exported ${prefix}/*Targets*.cmake ${prefix}/*.pc)
foreach(file ${exported})
  file(READ ${file} text)
  if(text MATCHES "Werror")
    message(FATAL_ERROR "${file} passes -Werror on to consumers")
  endif()
endforeach()

# 2a. find_package.
run("configuring the consumer" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/lib/test/consumer -B ${WORK_DIR}/consumer
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release ${compiler_args})
run("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run("running the find_package consumer" ${WORK_DIR}/consumer/lockcheck_consumer)
message(STATUS "find_package consumer: ${run_output}")

# 2b. pkg-config.
file(GLOB_RECURSE pc_files ${prefix}/lockcheck.pc)
if(NOT pc_files)
  message(FATAL_ERROR "lockcheck.pc not installed")
endif()
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}:$ENV{PKG_CONFIG_PATH}")
run("pkg-config lockcheck" pkg-config --cflags --libs lockcheck)
string(STRIP "${run_output}" pc_flags)
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
run("compiling the consumer with pkg-config flags" ${LAUNCHER} ${CXX} -std=c++20 -O1
    ${SOURCE_DIR}/lib/test/consumer/main.cpp ${pc_flags} -o ${WORK_DIR}/consumer_pkg_config)
run("running the pkg-config consumer" ${WORK_DIR}/consumer_pkg_config)
message(STATUS "pkg-config consumer: ${run_output}")

# 3. Library only: pkg-config sees hiredis and fmt alone; every other package is disabled.
set(only_pc ${WORK_DIR}/pkgconfig-hiredis-fmt)
file(MAKE_DIRECTORY ${only_pc})
foreach(module hiredis fmt)
  run("locating ${module}.pc" pkg-config --variable=pcfiledir ${module})
  string(STRIP "${run_output}" dir)
  file(COPY ${dir}/${module}.pc DESTINATION ${only_pc})
endforeach()
set(ENV{PKG_CONFIG_LIBDIR} ${only_pc})
set(ENV{PKG_CONFIG_PATH} "")
set(disabled)
foreach(package GTest benchmark rapidcheck nlohmann_json CLI11)
  list(APPEND disabled -DCMAKE_DISABLE_FIND_PACKAGE_${package}=ON)
endforeach()
run("configuring the library alone" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/library-only
    -DLOCKCHECK_BUILD_TESTS=OFF -DLOCKCHECK_BUILD_BENCHMARKS=OFF -DLOCKCHECK_BUILD_SIMULATOR=OFF
    -DLOCKCHECK_BUILD_TOOLS=OFF ${disabled} ${compiler_args})
message(STATUS "library-only configure: ok")
