# -DREADME=... -DEXAMPLE=...: fails unless README shows the example's README:BEGIN..END block verbatim.
file(READ "${EXAMPLE}" example)
file(READ "${README}" readme)
string(REGEX MATCH "// README:BEGIN\n(.*)// README:END" block "${example}")
set(block "${CMAKE_MATCH_1}")
string(FIND "${readme}" "${block}" position)
if(position EQUAL -1)
  message(FATAL_ERROR "README.md does not show the current quick start from ${EXAMPLE}; copy the README:BEGIN..END block into it")
endif()
