#include "progress_bar.hpp"

#include <cstdio>

namespace lockcheck::cli {

void show_progress(const std::string& name, std::size_t done, std::size_t total, double elapsed_s) {
  const double per_run = done > 0 ? elapsed_s / static_cast<double>(done) : 0;
  const double remaining = per_run * static_cast<double>(total - done);
  constexpr int kWidth = 30;
  const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
  std::fprintf(stderr, "\r%-32.32s [%s%s] %zu/%zu runs, ~%.0fs left ", name.c_str(), std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), done, total, remaining);
  if (done == total) std::fputs("\n", stderr);
  std::fflush(stderr);
}

}  // namespace lockcheck::cli
