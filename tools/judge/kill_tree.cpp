#include "kill_tree.hpp"

#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

namespace lockcheck::judge {
namespace {

// Every process's parent, from /proc/<pid>/stat's fourth field (after the command name, which may hold
// spaces and parentheses, so read from the last ')').
std::multimap<pid_t, pid_t> children_by_parent() {
  std::multimap<pid_t, pid_t> children;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;  // it exited meanwhile
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos || close + 4 >= line.size()) continue;
    // ") S 1234 ...": state, then the parent pid.
    const pid_t parent = static_cast<pid_t>(std::strtol(line.c_str() + close + 4, nullptr, 10));
    children.emplace(parent, static_cast<pid_t>(std::stol(name)));
  }
  return children;
}

}  // namespace

void kill_tree(pid_t root) {
  std::set<pid_t> tree{root};
  ::kill(root, SIGSTOP);
  // A child may have started one more between a listing and its own stop: list again until a listing
  // finds no one new (bounded: five listings, then whatever was found is killed).
  for (int listing = 0; listing < 5; ++listing) {
    const std::multimap<pid_t, pid_t> children = children_by_parent();
    bool found = false;
    for (const auto& [parent, child] : children) {
      if (tree.count(parent) == 0 || tree.count(child) > 0) continue;
      ::kill(child, SIGSTOP);
      tree.insert(child);
      found = true;
    }
    if (!found) break;
  }
  for (const pid_t pid : tree) ::kill(pid, SIGKILL);
}

}  // namespace lockcheck::judge
