#pragma once
// The report of a lock's search, printed from its record (explore_json.hpp): by `lockcheck explore` after its
// search, and by `lockcheck merge` after uniting searches, so both say the same things the same way: the lock's
// own bugs first, then the known limits met, then what the verdicts rest on and the marks, with blind spots.
// And the catalogue's fault profile (profile.md) from the records of several locks.
#include <string>
#include <vector>

#include "explore_json.hpp"

namespace lockcheck::cli {

struct ReportFiles {
  std::string directory;        // the folder a find's file is named relative to ("" the file is a path as it is)
  std::string verb = "wrote";   // "wrote", or what a merge without --out did with the file ("kept")
  // A merge: each search's name ("seed 5 shard 2/4"), so that a find's run says whose run it was.
  std::vector<std::string> searches;
  std::string replay = "lockcheck run";  // the command that replays a find's file (explore --client's: lockcheck judge)
  std::string shrink_unit = "simulations";  // what shrinking spent (explore --client: judged runs)
};

// `header`: what the report's first line says in parentheses after the lock's name; `notes`: lines under it.
void print_lock_report(const explore::LockRecord& lock, const std::string& header, const std::vector<std::string>& notes,
                       const ReportFiles& files);

// `how`: the first sentence, how the table was made (the command, or the searches merged).
std::string profile_markdown(const std::vector<explore::LockRecord>& locks, const std::string& how);

// `file` inside `directory` ("" : `file` as it is), with '/' separators on every system.
std::string path_in(const std::string& directory, const std::string& file);

}  // namespace lockcheck::cli
