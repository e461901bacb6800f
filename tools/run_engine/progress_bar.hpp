#pragma once
// A one-line progress bar with a remaining-time estimate, redrawn on stderr (for a terminal only; callers
// print plain lines when stderr is not a TTY).
#include <cstddef>
#include <string>

namespace lockcheck::cli {

// Redraws "<name> [####....] done/total runs, ~Ns left"; ends the line when done == total.
void show_progress(const std::string& name, std::size_t done, std::size_t total, double elapsed_s);

}  // namespace lockcheck::cli
