#include "lockcheck/entropy.hpp"

#include <pthread.h>
#include <sys/random.h>

#include <array>
#include <cerrno>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace lockcheck {

std::string Entropy::token_hex() {
  static constexpr char digits[] = "0123456789abcdef";
  // Written in place: with a push_back per digit a token cost about 800 instructions (callgrind).
  std::string token(32, '0');
  for (std::size_t word = 0; word < 2; ++word) {
    const std::uint64_t bits = next_u64();
    for (std::size_t digit = 0; digit < 16; ++digit) token[word * 16 + digit] = digits[(bits >> (60 - 4 * digit)) & 0xF];
  }
  return token;
}

std::uint64_t Entropy::uniform(std::uint64_t bound) {
  if (bound == 0) return 0;
  // Rejection sampling: draws above the largest multiple of bound would bias small values.
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::uint64_t draw = next_u64();
    if (draw < limit) return draw % bound;
  }
  return next_u64() % bound;  // probability of reaching here is below 2^-64
}

namespace {

// One getrandom(2) call per 32 words instead of one per word: a lock cycle draws two (its token), and the
// system call was a measurable part of it (tools/bench/token_bench). The pool is per thread, so no lock, and
// a forked child empties its copy: a child must never hand out the tokens its parent is about to use.
struct WordPool {
  std::array<std::uint64_t, 32> words{};
  std::size_t next = words.size();
};
thread_local WordPool pool;

void empty_pool_in_child() { pool.next = pool.words.size(); }

void fill(WordPool& target) {
  auto* out = reinterpret_cast<char*>(target.words.data());
  constexpr std::size_t size = sizeof target.words;
  std::size_t filled = 0;
  for (int attempt = 0; attempt < 16 && filled < size; ++attempt) {
    const ssize_t got = getrandom(out + filled, size - filled, 0);
    if (got > 0) {
      filled += static_cast<std::size_t>(got);
    } else if (got < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "getrandom");
    }
  }
  if (filled < size) throw std::runtime_error("getrandom: could not fill the entropy pool");
  target.next = 0;
}

}  // namespace

std::uint64_t OsEntropy::next_u64() {
  static const int fork_handler = pthread_atfork(nullptr, nullptr, &empty_pool_in_child);
  if (fork_handler != 0) throw std::system_error(fork_handler, std::generic_category(), "pthread_atfork");
  if (pool.next == pool.words.size()) fill(pool);
  return std::exchange(pool.words[pool.next++], 0);
}

}  // namespace lockcheck
