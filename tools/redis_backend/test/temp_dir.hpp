#pragma once
// A fresh folder under the system's temporary one, removed with everything in it when the test ends.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace lockcheck::redis_backend {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "lockcheck-backend-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string path_;
};

}  // namespace lockcheck::redis_backend
