# The interpreters the judged clients run with, found once at configure time and passed to every test by
# path, so that whether a test passes never depends on which `python3` or `node` comes first on PATH (a
# version manager's shim without redis-py, say).
#   LOCKCHECK_CLIENT_PYTHON  a python3 that imports redis (Debian's python3-redis, which tools/setup installs)
#   LOCKCHECK_CLIENT_NODE    a node that loads the pinned npm clients from LOCKCHECK_JUDGE_NODE_MODULES
# Candidates: Debian's own interpreter first (the one its packages install for), then each on PATH in order.
# Neither found: the bare name, so that the adapter itself fails at once and says what is missing.
function(lockcheck_find_client_interpreter out name probe_code)
  set(candidates "/usr/bin/${name}")
  if(CMAKE_HOST_UNIX)
    string(REPLACE ":" ";" path_dirs "$ENV{PATH}")
  else()
    set(path_dirs "$ENV{PATH}")
  endif()
  foreach(dir IN LISTS path_dirs)
    if(dir AND EXISTS "${dir}/${name}")
      list(APPEND candidates "${dir}/${name}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES candidates)
  foreach(candidate IN LISTS candidates)
    if(NOT EXISTS "${candidate}")
      continue()
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ARGN} "${candidate}" ${probe_code}
                    RESULT_VARIABLE probe_result OUTPUT_QUIET ERROR_QUIET TIMEOUT 30)
    if(probe_result EQUAL 0)
      set(${out} "${candidate}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "${name}" PARENT_SCOPE)
endfunction()

set(LOCKCHECK_JUDGE_NODE_MODULES ${PROJECT_BINARY_DIR}/judge-clients/node_modules)
lockcheck_find_client_interpreter(LOCKCHECK_CLIENT_PYTHON python3 "-c;import redis")
lockcheck_find_client_interpreter(LOCKCHECK_CLIENT_NODE node "-e;require('redlock');require('redis-semaphore');require('ioredis')"
                                  NODE_PATH=${LOCKCHECK_JUDGE_NODE_MODULES})
if(LOCKCHECK_CLIENT_PYTHON STREQUAL "python3")
  message(STATUS "lockcheck: no python3 imports redis (apt-get install python3-redis): the redis-py judge tests will say so")
else()
  message(STATUS "lockcheck: judged Python clients run with ${LOCKCHECK_CLIENT_PYTHON}")
endif()
if(LOCKCHECK_CLIENT_NODE STREQUAL "node")
  message(STATUS "lockcheck: no node loads the pinned clients from ${LOCKCHECK_JUDGE_NODE_MODULES} "
                 "(tools/judge/adapters/install.sh): the Node judge tests will say so")
else()
  message(STATUS "lockcheck: judged Node clients run with ${LOCKCHECK_CLIENT_NODE}")
endif()
