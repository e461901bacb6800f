# `cmake --install`: the library (lockcheck, lockcheck_core and lockcheck_resp), the public headers, a CMake package
# (find_package(lockcheck) -> lockcheck::lockcheck) and lockcheck.pc. Internal headers (lib/testing, the
# simulator) live outside lib/lockcheck/ and are not installed.
include(CMakePackageConfigHelpers)

install(TARGETS lockcheck lockcheck_core lockcheck_resp EXPORT lockcheckTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The whole tree by directory, so a header added to lib/lockcheck/ is installed without touching this file.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/lockcheck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
# The RESP value module's headers (lockcheck/reply.hpp, lockcheck/sha1.hpp), which the library's use.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/resp/include/lockcheck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
# The Lua scripts embedded at build time (lockcheck/scripts.hpp).
install(DIRECTORY ${PROJECT_BINARY_DIR}/lib/generated/lockcheck DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")

set(lockcheck_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/lockcheck)
install(EXPORT lockcheckTargets NAMESPACE lockcheck:: DESTINATION ${lockcheck_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/lockcheckConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/lockcheckConfig.cmake INSTALL_DESTINATION ${lockcheck_cmake_dir})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/lockcheckConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lockcheckConfig.cmake ${PROJECT_BINARY_DIR}/lockcheckConfigVersion.cmake
        DESTINATION ${lockcheck_cmake_dir})

# Relocatable: the prefix is found from the .pc file's own directory, so `cmake --install --prefix` works.
file(RELATIVE_PATH lockcheck_pc_to_prefix /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" lockcheck_pc_to_prefix "${lockcheck_pc_to_prefix}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/lockcheck.pc.in ${PROJECT_BINARY_DIR}/lockcheck.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lockcheck.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
