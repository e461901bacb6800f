#include "redis/rdb/lzf_compress.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace lockcheck::mock {
namespace {

constexpr unsigned kHashLog = 16;
constexpr std::size_t kHashSize = std::size_t{1} << kHashLog;
constexpr std::size_t kMaxLiteral = 32;
constexpr std::size_t kMaxOffset = 8192;
constexpr std::size_t kMaxReference = 264;  // 2^8 + 2^3
constexpr std::int64_t kNoPosition = -1;

// The hash of the three bytes ending at the low byte of `window` (liblzf's VERY_FAST IDX), in 32-bit arithmetic.
std::size_t slot_of(std::uint32_t window) {
  return static_cast<std::size_t>(((window >> (3 * 8 - kHashLog)) - window * 5u) & (kHashSize - 1));
}

// liblzf's output: literal runs (a control byte run-1 < 32, then the bytes) and back references. A literal run's
// control byte is reserved before its bytes arrive; `run_at` is where it goes.
class LzfWriter {
 public:
  explicit LzfWriter(std::size_t capacity) : capacity_(capacity) { out_.push_back(0); }
  std::size_t size() const { return out_.size(); }
  std::size_t literals() const { return literals_; }
  void literal(char byte) {
    out_.push_back(byte);
    if (++literals_ == kMaxLiteral) close_run_and_open();
  }
  // Ends the current run before a back reference (dropping its control byte when the run is empty).
  void end_run() {
    if (literals_ == 0) {
      out_.pop_back();
    } else {
      out_[out_.size() - literals_ - 1] = static_cast<char>(literals_ - 1);
    }
  }
  void reference(std::size_t offset, std::size_t length_less_2) {
    if (length_less_2 < 7) {
      out_.push_back(static_cast<char>((offset >> 8) + (length_less_2 << 5)));
    } else {
      out_.push_back(static_cast<char>((offset >> 8) + (7u << 5)));
      out_.push_back(static_cast<char>(length_less_2 - 7));
    }
    out_.push_back(static_cast<char>(offset & 0xff));
    literals_ = 0;
    out_.push_back(0);
  }
  std::string finish() {
    end_run();
    return std::move(out_);
  }
  std::size_t capacity() const { return capacity_; }

 private:
  void close_run_and_open() {
    out_[out_.size() - literals_ - 1] = static_cast<char>(literals_ - 1);
    literals_ = 0;
    out_.push_back(0);
  }
  std::size_t capacity_;
  std::size_t literals_ = 0;
  std::string out_;  // its size is liblzf's output position: the open run's control byte is reserved in it
};

// How many bytes at `ref` and `at` agree (at least 3 are known to), as liblzf counts them: sixteen unbounded
// steps first when the bound is over 16, then up to `bound`.
std::size_t match_length(std::string_view in, std::size_t ref, std::size_t at, std::size_t bound) {
  std::size_t length = 2;
  if (bound > 16) {
    for (int step = 0; step < 16; ++step) {
      ++length;
      if (in[ref + length] != in[at + length]) return length;
    }
  }
  do {
    ++length;
  } while (length < bound && in[ref + length] == in[at + length]);
  return length;
}

}  // namespace

std::optional<std::string> lzf_compress(std::string_view in) {
  if (in.size() <= 4) return std::nullopt;
  const std::size_t n = in.size();
  LzfWriter out(n - 4);
  std::vector<std::int64_t> table(kHashSize, kNoPosition);
  auto byte = [&](std::size_t at) { return static_cast<std::uint32_t>(static_cast<unsigned char>(in[at])); };
  std::size_t at = 0;
  std::uint32_t window = (byte(0) << 8) | byte(1);
  while (at + 2 < n) {  // every round consumes at least one input byte
    window = (window << 8) | byte(at + 2);
    std::int64_t& slot = table[slot_of(window)];
    const std::int64_t ref = slot;
    slot = static_cast<std::int64_t>(at);
    const bool found = ref > 0 && static_cast<std::size_t>(ref) < at && at - static_cast<std::size_t>(ref) - 1 < kMaxOffset &&
                       in[static_cast<std::size_t>(ref) + 2] == in[at + 2] && in[static_cast<std::size_t>(ref)] == in[at] &&
                       in[static_cast<std::size_t>(ref) + 1] == in[at + 1];
    if (!found) {
      if (out.size() >= out.capacity()) return std::nullopt;
      out.literal(in[at++]);
      continue;
    }
    const auto from = static_cast<std::size_t>(ref);
    const std::size_t offset = at - from - 1;
    const std::size_t bound = std::min(n - at - 2, kMaxReference);
    // Room for the reference (3 bytes) and the next run's control byte, counted as liblzf counts it.
    if (out.size() - (out.literals() == 0 ? 1 : 0) + 3 + 1 >= out.capacity()) return std::nullopt;
    const std::size_t length = match_length(in, from, at, bound) - 2;  // stored as octets - 2
    out.end_run();
    out.reference(offset, length);
    at += 1 + length + 1;
    if (at + 2 >= n) break;
    // VERY_FAST: hash the two positions before the match's end.
    at -= 2;
    window = (byte(at) << 8) | byte(at + 1);
    window = (window << 8) | byte(at + 2);
    table[slot_of(window)] = static_cast<std::int64_t>(at);
    ++at;
    window = (window << 8) | byte(at + 2);
    table[slot_of(window)] = static_cast<std::int64_t>(at);
    ++at;
  }
  if (out.size() + 3 > out.capacity()) return std::nullopt;  // at most 3 more bytes follow
  while (at < n) out.literal(in[at++]);
  return out.finish();
}

}  // namespace lockcheck::mock
