#pragma once
// A small file mapped into memory and shared between processes: how a run talks to the clock shim of its
// redis-servers (clock_offset.h) and to its worker processes (routing_table.hpp) without sockets.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace lockcheck::redis_backend {

class SharedFile {
 public:
  // create: makes the file `size` bytes of zeros; otherwise maps an existing file. Throws std::runtime_error.
  SharedFile(std::string path, std::size_t size, bool create);
  ~SharedFile();
  SharedFile(const SharedFile&) = delete;
  SharedFile& operator=(const SharedFile&) = delete;

  void* data() const { return data_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::size_t size_;
  void* data_ = nullptr;
};

// A sequence lock over fields in a shared file: `sequence` is odd while the one writer changes them, so a
// reader in another process retries instead of seeing half an update.
template <typename Write>
void write_sequenced(volatile std::uint64_t& sequence, Write&& write) {
  sequence = sequence + 1;
  __sync_synchronize();
  write();
  __sync_synchronize();
  sequence = sequence + 1;
}

template <typename Read>
auto read_sequenced(const volatile std::uint64_t& sequence, Read&& read) {
  // Bounded: the writer holds the odd sequence only for a few stores.
  for (int attempt = 0; attempt < 100000; ++attempt) {
    const std::uint64_t before = sequence;
    if ((before & 1u) != 0) continue;
    __sync_synchronize();
    auto value = read();
    __sync_synchronize();
    if (sequence == before) return value;
  }
  throw std::runtime_error("shared file: no consistent reading");
}

}  // namespace lockcheck::redis_backend
