#include "shared_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>

namespace lockcheck::redis_backend {

SharedFile::SharedFile(std::string path, std::size_t size, bool create) : path_(std::move(path)), size_(size) {
  const int fd = create ? open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : open(path_.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open shared file " + path_);
  if (create && ftruncate(fd, static_cast<off_t>(size_)) != 0) {
    close(fd);
    throw std::runtime_error("cannot size shared file " + path_);
  }
  void* area = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (area == MAP_FAILED) throw std::runtime_error("cannot map shared file " + path_);
  data_ = area;
}

SharedFile::~SharedFile() {
  if (data_ != nullptr) munmap(data_, size_);
}

}  // namespace lockcheck::redis_backend
