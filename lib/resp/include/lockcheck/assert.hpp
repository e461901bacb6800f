#pragma once
// LOCKCHECK_ASSERT: an invariant checked while running, in the library, the simulator, the mock and the tests
// alike (here, beside the RESP types both the library and the mock build on, so the mock needs no library)
// (TigerBeetle keeps its assertions on in production: a broken invariant in a lock is a lost lock, better a
// crash with the place than a silent double grant). Only cheap checks belong here; it is never compiled out.
#include <cstdio>
#include <cstdlib>

namespace lockcheck::detail {

[[noreturn]] inline void assertion_failed(const char* expression, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: lockcheck invariant broken: %s\n", file, line, expression);
  std::fflush(stderr);
  std::abort();
}

}  // namespace lockcheck::detail

#define LOCKCHECK_ASSERT(expression) \
  ((expression) ? static_cast<void>(0) : ::lockcheck::detail::assertion_failed(#expression, __FILE__, __LINE__))
