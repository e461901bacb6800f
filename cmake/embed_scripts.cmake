# Embeds Lua files as C++ string constants at build time, so the same bytes run on Redis and in the mock.
# lockcheck_embed_scripts(TARGET OUT_NAMESPACE FILES...) generates <target>_scripts.{hpp,cpp} with one
# `inline constexpr std::string_view <stem>` per file.
set(LOCKCHECK_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_one.cmake")

function(lockcheck_embed_scripts target header_name)
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/generated/lockcheck")
  set(header "${out_dir}/${header_name}")
  add_custom_command(
    OUTPUT "${header}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${header} "-DFILES=${ARGN}" -P "${LOCKCHECK_EMBED_SCRIPT}"
    DEPENDS ${ARGN} "${LOCKCHECK_EMBED_SCRIPT}"
    COMMENT "Embedding Lua scripts into ${header_name}"
    VERBATIM)
  target_sources(${target} PRIVATE "${header}")
  # Build tree only: an installed lockcheck has the header among its own (cmake/install.cmake).
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${CMAKE_CURRENT_BINARY_DIR}/generated>")
endfunction()
