#pragma once
// `lockcheck explore --client CMD` (and from a scenario with `[client] command`): explore's search over the
// faults the real backend applies to an external lock client (tools/judge/PROTOCOL.md), each run a `lockcheck
// judge` run on real redis-servers (client_run.hpp). The draws, marks and guidance are explore's own
// (fault_space.hpp, explorer.hpp), restricted to the kinds the real backend makes real; what differs is the
// cost (real time: runs side by side, short TTLs) and that a real run does not replay byte for byte, so a find
// is confirmed by reruns, shrunk only while it still reproduces, and decided own bug or known limit by running
// lockcheck's reference lock of the deployment's kind (`lockcheck_judge_mutex` on one master,
// `lockcheck_judge_redlock` on several independent ones: client_reference_for) under the same schedule as often.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "client_run.hpp"
#include "explorer.hpp"
#include "find_file.hpp"

namespace lockcheck::explore {

// The reference lock a client's find is decided against, by the deployment the search runs the client on (the
// base's topology): lockcheck's Mutex (`lockcheck_judge_mutex`) on one master, with or without replicas; its
// RedlockMutex (`lockcheck_judge_redlock`) on several independent masters, where a quorum client (node-redlock
// over N masters, redis-semaphore's RedlockMutex) runs and where a fault on one node (its clock, its restart)
// breaks a single-master lock but not a quorum; the Mutex as a cluster or Sentinel client on a [cluster] or a
// [sentinel]. `program` empty (none) is kept for a deployment no adapter speaks: there the theory decides
// (known_limit.hpp).
struct ClientReference {
  std::string program;        // the adapter's file name (beside the lockcheck binary); empty: none
  std::string lock;           // the library type, as reports name it ("Mutex", "RedlockMutex")
  std::string none_because;   // why there is none
  bool quorum = false;        // a reference over several masters: no single node's fault is a limit of its kind
};
ClientReference client_reference_for(const sim::RunConfig& base);

struct ClientSearchSettings {
  ClientSpec client;
  std::string label;                    // the client as reports name it (its adapter's file name)
  std::string lockcheck;                // the lockcheck binary (runs `judge`)
  ClientReference reference;            // the reference lock of the deployment's kind (client_reference_for)
  std::string reference_program;        // its adapter's path; empty: none (the theory decides)
  sim::RunConfig base;                  // the search's starting configuration: its own links (client_link_delay.hpp)
  bool renews = false;                  // the client renews its lease by itself (holds past the TTL are drawn)
  unsigned parallel = 3;                // judged runs at once
  int confirm_runs = 5;                 // R: reruns of a find's schedule
  int min_reproductions = 2;            // of R (of 2R, one short: confirmation_after), for a find and a shrink step
  int shrink_runs = 16;                 // judged runs a find's shrinking may spend
  std::string out_dir;                  // where find files go
  std::string work_dir;                 // each run's scratch (files removed after)
};

// What R reruns of a find's schedule say (`violated` of `runs` finished): confirmed at min_reproductions; one short
// of it, seen again but once, after the first R: R more reruns, and confirmed at min_reproductions of 2R (a slow
// client's race that shows in a quarter of the runs is seen once in five about as often as twice: at 2 of 5 such a
// find was dropped more often than kept); otherwise not a find.
enum class Confirmation : std::uint8_t { confirmed, rerun_more, not_a_find };
Confirmation confirmation_after(int violated, int runs, const ClientSearchSettings& settings);

// What a find's own-bug decision cites for the client: its reruns as found (`confirmed_violated` of
// `confirmed_runs`), and the written file's runs when those saw it too. A file that reproduced nothing in its
// few runs (a race seen in 2 of 10) is no evidence of its own; the reruns as found are.
std::string client_evidence(int confirmed_violated, int confirmed_runs, int file_violated, int file_runs);

// The starting configuration of `--client CMD`: the token variant's comparison workload (a single master, the
// reference lock's kind) with a replica (so failover is in the model), a 500 ms TTL and 4 s runs (a judged run
// lasts a few seconds), and, for a client that renews by itself, holds up to 3 TTLs.
sim::RunConfig client_base(bool renews);

// The kinds explore draws that the real backend cannot make real for `base` (`supported` is the backend's own
// word, redis_backend::real_backend_supports), or that a `[sentinel]` refuses: to be left out (`--without`).
std::vector<sim::FaultKind> kinds_not_real(const sim::RunConfig& base, bool (*supported)(sim::FaultKind));

// Whether the client renews its lease by itself: one fault-free judged run, two clients holding 3 TTLs each, a
// waiter's wait longer than a hold. A client that does not renew lets the key expire under its holder and the
// waiter acquires (mutual_exclusion_client violated); one that renews keeps it.
bool probe_renews(const ClientRunner& runner, const ClientSpec& client, const sim::RunConfig& base);

// What confirming, shrinking and deciding one find cost and showed.
struct ClientFindRecord {
  std::string property;
  std::uint64_t run = 0;
  int reproduced = 0, confirm_runs = 0;            // the written file, rerun R times
  int reference_runs = 0, reference_violations = 0;
  int shrink_runs = 0;                             // judged runs shrinking spent
  bool own_bug = false;
  WrittenFind file;
};

class ClientFindJudge {
 public:
  ClientFindJudge(ClientSearchSettings settings, sim::Fencing fencing)
      : settings_(std::move(settings)), fencing_(fencing), runner_(settings_.lockcheck, settings_.work_dir) {}
  // ExploreOptions::judge_find: confirms, decides against the reference on the run as found, shrinks while it
  // reproduces, writes the file, confirms the file R times, decides again on it.
  FindDecision judge(Find& find);
  // The file written for a find (by property and run), and every record.
  WrittenFind file_of(const Find& find) const;
  std::vector<ClientFindRecord> records() const;
  const ClientRunner& runner() const { return runner_; }

 private:
  struct Tally {
    int runs = 0, violated = 0;
    std::uint64_t first_seed = 0;
    properties::Verdict verdict;  // the first violation's
    std::int64_t violation_us = -1;
  };
  // Runs `client` on `plan` with seeds seed, seed+1, ..., at most `runs`, `parallel` at once, stopping once
  // `enough` says the outcome is settled (violations so far, runs finished).
  // With `every_property`, each run's verdict on every property is tallied there too.
  Tally rerun(const RunPlan& plan, const ClientSpec& client, const std::string& property, int runs,
              const std::function<bool(int violated, int finished)>& enough,
              std::map<std::string, Tally>* every_property = nullptr) const;
  // Whether the plan still reproduces: at least min_reproductions of confirm_runs, stopping early either way:
  // refuted after `refuted_after` misses (as many as a schedule that reproduced at the confirmed rate misses in a
  // row only one time in twenty).
  bool reproduces(const RunPlan& plan, const std::string& property, int refuted_after, int& spent) const;
  // Shrinks find.minimal; true when it ended 1-minimal (no single unit of faults could go), not out of budget.
  bool shrink(Find& find, int reproduced, int& spent) const;
  // How many reference runs keep a client's rate honest: a lock that reproduced k of R breaks at least once in
  // that many runs with probability 95%, were it as likely to break (at least R, at most 20).
  int reference_runs(int reproduced) const;
  // The find's reruns as found (confirm_runs of them, or twice that when the first ones were one short); cached
  // for every property the run broke.
  Tally confirm(const Find& find, const std::string& property);
  ClientSpec reference_client() const;
  // The reference on `plan` (the find's, or its shrunk one) in `runs` runs at most, stopping at a violation.
  Tally reference_on(const Find& find, const RunPlan& plan, int runs);
  static void add_to(Tally& to, const Tally& more);
  bool client_is_reference() const;
  std::string reference_name() const;  // "lockcheck_judge_mutex --watchdog", for reports
  // "lockcheck's reference Mutex": the reference lock in a decision's sentence.
  std::string reference_lock() const { return "lockcheck's reference " + settings_.reference.lock; }

  ClientSearchSettings settings_;
  sim::Fencing fencing_;
  ClientRunner runner_;
  // A run's confirmation, for every property: one run that broke several is rerun once, not once per property.
  std::map<std::uint64_t, std::map<std::string, Tally>> confirmed_;
  // The reference on a run's schedule as found, for every property (the same: a run that broke several).
  std::map<std::uint64_t, std::map<std::string, Tally>> referenced_;
  mutable std::mutex mutex_;
  std::vector<ClientFindRecord> records_;
};

}  // namespace lockcheck::explore
