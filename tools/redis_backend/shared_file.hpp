#pragma once
// A small file mapped into memory and shared between processes: how a run talks to the clock shim of its
// redis-servers (clock_offset.h) and to its worker processes (routing_table.hpp) without sockets.
#include <cstddef>
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

}  // namespace lockcheck::redis_backend
