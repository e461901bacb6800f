#pragma once
// A search's kept runs on disk (`lockcheck explore --corpus DIR`), so that a later search resumes from what an
// earlier one learnt, as libFuzzer's corpus does: one scenario file per kept run, DIR/<lock>-<hash>.toml, the
// hash that of the file's text. Equal runs get one name, different runs different names: the shards of a search
// and the nights of a nightly job share one folder, and a folder from several machines is the union of their
// files (nothing is ever overwritten with something else).
//
// A corpus file states a run, not a claim: `[expect] none = "..."`. It names its scripts by file name only; the
// search that loads it runs its own lock's code (the scripts given now), since a corpus holds fault schedules
// and workloads, not the lock.
#include <cstddef>
#include <string>
#include <vector>

#include "model/run_config.hpp"
#include "run_plan.hpp"

namespace lockcheck::explore {

// At most this many files are loaded per lock (the first by name): each runs once before the search.
inline constexpr std::size_t kMaxCorpusRuns = 4096;

struct CorpusWritten {
  std::size_t written = 0;  // new files
  std::size_t present = 0;  // already in the folder (this run, or one equal to it, was kept before)
  std::vector<std::string> problems;  // runs the scenario format cannot state (none expected), each said why
};

// Writes each run not yet in `directory` as <lock>-<hash>.toml (through a temporary file and a rename, so that
// a reader, or a shard writing the same run, never sees half a file).
CorpusWritten write_corpus(const std::vector<RunPlan>& runs, const std::string& lock, const std::string& directory);

struct CorpusLoaded {
  std::vector<RunPlan> runs;  // in file-name order: the same folder gives the same search
  std::size_t left_out = 0;   // files past kMaxCorpusRuns
};

// The runs of `lock` in `directory` (files named <lock>-<16 hex digits>.toml; other files are not this lock's
// and are left alone), rebased on `base`: the scripts are base's. An absent folder is an empty corpus. A file of
// this lock that does not read as a scenario of base's variant is an error, not skipped: std::invalid_argument
// naming the file and why (a corpus is written by explore, so a bad file is damage someone should see).
CorpusLoaded load_corpus(const std::string& directory, const std::string& lock, const sim::RunConfig& base);

// "<lock>-<hash>.toml" for a corpus file's text; the lock's name made file_safe (shard.hpp).
std::string corpus_file_name(const std::string& lock, const std::string& text);

}  // namespace lockcheck::explore
