// Every class of mistake in a scenario file is reported at the right line:column with a message that says
// what is allowed.
#include <gtest/gtest.h>

#include "scenario/scenario.hpp"
#include "scenario_error.hpp"

namespace lockcheck::sim {
namespace {

using testing::error_of;

TEST(ScenarioErrors, UnknownKeyListsAllowed) {
  EXPECT_EQ(error_of("duration_ms = 1000\n\n[lock]\nttl_ms = 100\n\n\ntll_ms = 5\n"),
            "scenarios/x.toml:7:1: unknown key 'tll_ms' in [lock] (did you mean 'ttl_ms'?); allowed: ttl_ms, drift_ppm, retry_delay_min_ms, "
            "retry_delay_max_ms, unknown_outcome_attempts, drift_floor_ms, max_attempts, idempotent_attempts, "
            "watchdog, renew_divisor, max_renewals, max_hold_ms");
}

TEST(ScenarioErrors, UnknownTopLevelKeyAndTable) {
  EXPECT_EQ(error_of("durations_ms = 5\n").substr(0, 87),
            "scenarios/x.toml:1:1: unknown key 'durations_ms' (did you mean 'duration_ms'?); allowed");
  EXPECT_NE(error_of("x = 1\n[foo]\n").find("[lock], [clients], [[nodes]]"), std::string::npos);
  EXPECT_EQ(error_of("[foo]\na = 1\n").substr(0, 53), "scenarios/x.toml:1:1: unknown table [foo]; allowed: n");
  EXPECT_EQ(error_of("[[fault]]\nkind = \"heal\"\n").substr(0, 76),
            "scenarios/x.toml:1:1: unknown table [[fault]] (did you mean '[[faults]]'?); ");
}

// server = "serve" (or --server serve): what a served mock cannot run is refused at its own line.
TEST(ScenarioErrors, AServedMockRefusesReplicationAndKeptDataAtTheirLines) {
  const std::string why = ": `lockcheck serve` runs single nodes (no replication, cluster, sentinel or persistence)";
  EXPECT_EQ(error_of("server = \"serve\"\n[[nodes]]\n[[nodes]]\nreplica_of = 0\n"),
            "scenarios/x.toml:4:14: server = \"serve\" cannot run a replica" + why);
  EXPECT_EQ(error_of("server = \"serve\"\n[[faults]]\nat_ms = 5\nkind = \"node_restart\"\nnode = 0\n"),
            "scenarios/x.toml:4:8: server = \"serve\" cannot run a node_restart that keeps data (mode = \"lost\" is fine)" + why);
  EXPECT_EQ(error_of("server = \"serve\"\n[[faults]]\nat_ms = 5\nkind = \"node_restart\"\nnode = 0\nmode = \"lost\"\n"), "no error");
  EXPECT_NE(error_of("server = \"serve\"\n[cluster]\nshards = 2\n").find("cannot run a [cluster]"), std::string::npos);
  EXPECT_EQ(error_of("server = \"redis\"\n"),
            "scenarios/x.toml:1:10: server must be \"redis-server\" or \"serve\", not \"redis\"");
}

// [client] (lockcheck judge): a command or keys (the command then comes from `judge --client`), its words
// non-empty, only the real backend runs it, and workload settings the protocol cannot drive are refused at the
// table.
TEST(ScenarioErrors, AnExternalClientIsCheckedAtItsLine) {
  EXPECT_EQ(error_of("[client]\n"),
            "scenarios/x.toml:1:1: [client] names nothing: give command = [\"python3\", \"adapter.py\"], or keys alone "
            "(the keys its library writes) for a client given by lockcheck judge --client");
  EXPECT_EQ(error_of("[client]\nkeys = [\"mutex:lock\"]\n"), "no error");
  EXPECT_EQ(error_of("[client]\ncommand = [\"node\", \"\"]\n"), "scenarios/x.toml:2:20: [client] command takes non-empty strings");
  EXPECT_EQ(error_of("backend = \"mock\"\n[client]\ncommand = [\"node\"]\n"),
            "scenarios/x.toml:1:11: an external [client] runs against real redis-server: backend = \"redis\" (or leave it out)");
  EXPECT_EQ(error_of("[lock]\nwatchdog = true\n[client]\ncommand = [\"node\"]\n"),
            "scenarios/x.toml:4:11: an external client holds one lease at a time on one thread and renews by its own "
            "library; [lock] watchdog needs more of the lock than the protocol drives");
  EXPECT_NE(error_of("[workload]\nnest_every = 2\n[client]\ncommand = [\"node\"]\n").find("[workload] nest_every"), std::string::npos);
  EXPECT_NE(error_of("[workload]\nnest_every = 2\n[client]\nkeys = [\"mutex:lock\"]\n").find("[workload] nest_every"), std::string::npos);
}

TEST(ScenarioErrors, AnExternalClientRunsOnRealRedisWithItsKeys) {
  const Scenario scenario = parse_scenario("[client]\ncommand = [\"node\", \"a.js\"]\nkeys = [\"mutex:lock\"]\n", "scenarios/x.toml");
  EXPECT_EQ(scenario.backend, "redis");
  EXPECT_EQ(scenario.config.external.command, (std::vector<std::string>{"node", "a.js"}));
  EXPECT_EQ(scenario.config.external.keys, (std::vector<std::string>{"mutex:lock"}));
}

TEST(ScenarioErrors, UnknownKeyInArrayTable) {
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"heal\"\nprocesss = 1\n").substr(0, 89),
            "scenarios/x.toml:4:1: unknown key 'processs' in [[faults]] (did you mean 'process'?); all");
}

TEST(ScenarioErrors, WrongTypeNamesExpectedType) {
  EXPECT_EQ(error_of("duration_ms = \"20s\"\n"),
            "scenarios/x.toml:1:15: duration_ms must be an integer, not a string");
  EXPECT_EQ(error_of("[lock]\nttl_ms = 1.5\n"),
            "scenarios/x.toml:2:10: [lock] ttl_ms must be an integer, not a floating-point number");
  EXPECT_EQ(error_of("[workload]\nfencing = 1\n"),
            "scenarios/x.toml:2:11: [workload] fencing must be true (= \"writes\"), false, \"writes\" or "
            "\"reads-and-writes\", not an integer");
  EXPECT_EQ(error_of("lock = 5\n"), "scenarios/x.toml:1:8: lock must be a table, not an integer");
  EXPECT_EQ(error_of("nodes = 1\n"),
            "scenarios/x.toml:1:9: nodes must be written as [[nodes]] tables, not an integer");
  EXPECT_EQ(error_of("variant = 3\n"), "scenarios/x.toml:1:11: variant must be a string, not an integer");
}

// A misspelt variant is the scenario's error, with its place, found when the file is read: not an "internal
// error" of the first seed's run (exit 3), as it was.
TEST(ScenarioErrors, UnknownVariantNamesThePlaceAndTheClosestId) {
  const std::string error = error_of("variant = \"tokn\"\n");
  EXPECT_EQ(error.substr(0, error.find(';')), "scenarios/x.toml:1:11: unknown lock variant 'tokn' (did you mean 'token'?)");
  EXPECT_NE(error.find("known: exists-then-set, "), std::string::npos) << error;
  EXPECT_EQ(error_of("variant = \"REDLOCK\"\n").substr(0, 66),
            "scenarios/x.toml:1:11: unknown lock variant 'REDLOCK' (did you mea");
  const std::string far = error_of("variant = \"zookeeper\"\n");
  EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
  EXPECT_EQ(error_of("variant = \"script\"\n[scripts]\nacquire = \"a.lua\"\nrelease = \"r.lua\"\n").find("unknown lock variant"),
            std::string::npos);
}

TEST(ScenarioErrors, ClusterTable) {
  const auto starts = [](const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; };
  EXPECT_EQ(error_of("[[nodes]]\n[cluster]\nshards = 2\n"),
            "scenarios/x.toml:2:1: [cluster] builds the nodes itself (masters, then replicas); remove the [[nodes]] "
            "entries");
  std::string error = error_of("[cluster]\nshards = 0\n");
  EXPECT_TRUE(starts(error, "scenarios/x.toml:2:10: [cluster] shards must")) << error;
  error = error_of("[cluster]\nlag_min_ms = 9\nlag_max_ms = 2\n");
  EXPECT_TRUE(starts(error, "scenarios/x.toml:3:14: [cluster] lag_max_ms")) << error;
  error = error_of("[cluster]\nshard = 2\n");
  EXPECT_TRUE(starts(error, "scenarios/x.toml:2:1: unknown key 'shard' in [cluster]")) << error;
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"slot_migration\"\nnode = 0\nduration_ms = 5\n"),
            "scenarios/x.toml:3:8: [[faults]] slot_migration is a cluster fault: it needs a [cluster]");
  error = error_of("[cluster]\nshards = 2\n[[faults]]\nat_ms = 1\nkind = \"node_crash\"\nnode = 2\n");
  EXPECT_TRUE(starts(error, "scenarios/x.toml:6:8: [[faults]] node mus")) << error;
}

TEST(ScenarioErrors, SentinelTable) {
  const auto starts = [](const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; };
  EXPECT_EQ(error_of("[[nodes]]\n[sentinel]\nsentinels = 3\n"),
            "scenarios/x.toml:2:1: [sentinel] builds the nodes itself (the master, then its replicas); remove the "
            "[[nodes]] entries");
  EXPECT_EQ(error_of("[cluster]\n[sentinel]\n"), "scenarios/x.toml:2:1: a scenario has a [cluster] or a [sentinel], not both");
  std::string error = error_of("[sentinel]\nsentinels = 3\nquorum = 4\n");
  EXPECT_TRUE(starts(error, "scenarios/x.toml:3:10: [sentinel] quorum must")) << error;
  error = error_of("[sentinel]\nreplicas = 1\nmin_replicas_to_write = 2\n");
  EXPECT_TRUE(starts(error, "scenarios/x.toml:3:25: [sentinel] min_replicas_to_write must")) << error;
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"split_brain\"\nnode = 0\nprocess = 0\n"),
            "scenarios/x.toml:3:8: [[faults]] split_brain needs a [cluster] or a [sentinel]");
  // A replica of a sentinel deployment can be its master later (after a failover): it may be named.
  EXPECT_EQ(error_of("[sentinel]\nreplicas = 1\n[[faults]]\nat_ms = 1\nkind = \"split_brain\"\nnode = 1\nprocess = 0\n"), "no error");
  error = error_of("[cluster]\nshards = 2\nreplicas_per_shard = 1\n[[faults]]\nat_ms = 1\nkind = \"split_brain\"\nnode = 2\nprocess = 0\n");
  EXPECT_TRUE(starts(error, "scenarios/x.toml:7:8: [[faults]] split_brain node 2 is a replica")) << error;
}

TEST(ScenarioErrors, BadEnum) {
  EXPECT_EQ(error_of("[expect]\nmutual_exclusion_client = \"maybe\"\n"),
            "scenarios/x.toml:2:27: [expect] mutual_exclusion_client must be \"holds\" or \"violated\", not \"maybe\"");
  EXPECT_EQ(error_of("backend = \"etcd\"\n"),
            "scenarios/x.toml:1:11: backend must be \"mock\" or \"redis\", not \"etcd\"");
  EXPECT_EQ(error_of("[[nodes]]\neviction = \"lru\"\n"),
            "scenarios/x.toml:2:12: [[nodes]] eviction must be one of \"noeviction\", \"allkeys-random\", "
            "\"allkeys-lru\", \"allkeys-lfu\", \"volatile-lfu\", not \"lru\"");
  EXPECT_EQ(error_of("[expect]\nliveness = \"holds\"\n").substr(0, 63),
            "scenarios/x.toml:2:1: unknown key 'liveness' in [expect]; allow");
}

TEST(ScenarioErrors, OutOfRange) {
  EXPECT_EQ(error_of("[lock]\nttl_ms = 5\n"),
            "scenarios/x.toml:2:10: [lock] ttl_ms must be in [10, 2592000000], not 5");
  EXPECT_EQ(error_of("[lock]\nttl_ms = 2592000001\n"),
            "scenarios/x.toml:2:10: [lock] ttl_ms must be in [10, 2592000000], not 2592000001");
  EXPECT_EQ(error_of("duration_ms = -1\n"),
            "scenarios/x.toml:1:15: duration_ms must be in [1, 31536000000], not -1");
  EXPECT_EQ(error_of("[workload]\nhold_min_ms = -3\n"),
            "scenarios/x.toml:2:15: [workload] hold_min_ms must be in [0, 31536000000], not -3");
  EXPECT_EQ(error_of("[network]\nreply_loss_ppm = 1000001\n"),
            "scenarios/x.toml:2:18: [network] reply_loss_ppm must be in [0, 1000000], not 1000001");
  EXPECT_EQ(error_of("[network]\ndelay_min_us = 500\ndelay_max_us = 100\n"),
            "scenarios/x.toml:3:16: [network] delay_max_us (100) must not be less than delay_min_us (500)");
  EXPECT_EQ(error_of("[clients]\ncount = 2\n[[clients.clock]]\nprocess = 2\n"),
            "scenarios/x.toml:4:11: [[clients.clock]] process must be in [0, 1], not 2");
}

TEST(ScenarioErrors, ReplicaOfMustNameAnExistingMaster) {
  EXPECT_EQ(error_of("[[nodes]]\n[[nodes]]\nreplica_of = 2\n"),
            "scenarios/x.toml:3:14: [[nodes]] replica_of must be in [-1, 1], not 2");
  EXPECT_EQ(error_of("[[nodes]]\nreplica_of = 0\n"),
            "scenarios/x.toml:2:14: [[nodes]] node 0 cannot be a replica of itself");
  EXPECT_EQ(error_of("[[nodes]]\n[[nodes]]\nreplica_of = 0\n[[nodes]]\nreplica_of = 1\n"),
            "scenarios/x.toml:5:14: [[nodes]] node 2 replicates node 1, which is itself a replica; replica_of must "
            "name a master");
}

TEST(ScenarioErrors, FaultIndicesAndTimes) {
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"crash\"\nprocess = 3\n"),
            "scenarios/x.toml:4:11: [[faults]] process must be in [0, 2], not 3");
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"node_crash\"\nnode = 1\n"),
            "scenarios/x.toml:4:8: [[faults]] node must be in [0, 0], not 1");
  EXPECT_EQ(error_of("duration_ms = 1000\n[[faults]]\nat_ms = 1001\nkind = \"heal\"\n"),
            "scenarios/x.toml:3:9: [[faults]] at_ms (1001) is after the end of the run (duration_ms = 1000)");
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"failover\"\nnode = 0\n"),
            "scenarios/x.toml:4:8: [[faults]] failover node 0 is a master; failover promotes a replica (a [[nodes]] "
            "entry with replica_of)");
}

TEST(ScenarioErrors, UnknownFaultKindListsKinds) {
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"sleep\"\n"),
            "scenarios/x.toml:3:8: [[faults]] kind must be one of \"pause\", \"crash\", \"restart\", "
            "\"client_clock_jump\", \"client_clock_drift\", \"node_clock_jump\", \"node_clock_drift\", "
            "\"node_crash\", \"node_restart\", \"failover\", \"partition\", \"heal\", \"loss\", \"slow_node\", "
            "\"evict\", \"replica_partition\", \"slot_migration\", \"split_brain\", not \"sleep\"");
}

TEST(ScenarioErrors, EvictTargetOnlyForEvictAndOnlyKnownTargets) {
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"heal\"\ntarget = \"lock\"\n"),
            "scenarios/x.toml:4:10: [[faults]] target is for kind \"evict\" (which key it evicts)");
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"evict\"\nnode = 0\ntarget = \"all\"\n"),
            "scenarios/x.toml:5:10: [[faults]] target must be \"any\" or \"lock\", not \"all\"");
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"evict\"\nnode = 0\ntarget = \"lock\"\n"), "no error");
}

TEST(ScenarioErrors, MissingFaultField) {
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"pause\"\nprocess = 0\n"),
            "scenarios/x.toml:1:1: [[faults]] kind \"pause\" needs duration_ms");
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"heal\"\n\n[[faults]]\nat_ms = 1\nkind = \"partition\"\nnode = 0\n"),
            "scenarios/x.toml:5:1: [[faults]] kind \"partition\" needs process");
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"loss\"\n"),
            "scenarios/x.toml:1:1: [[faults]] kind \"loss\" needs request_loss_ppm or reply_loss_ppm");
  EXPECT_EQ(error_of("[[faults]]\nkind = \"heal\"\n"),
            "scenarios/x.toml:1:1: [[faults]] needs at_ms (when the fault happens)");
  // A key of another kind is allowed (it is in the list) and ignored.
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"heal\"\ndelta_ms = 5\n"), "no error");
}

TEST(ScenarioErrors, NemesisSizes) {
  EXPECT_EQ(error_of("[nemesis]\npause_every_ms = 100\n"),
            "scenarios/x.toml:1:1: [nemesis] pause_max_ms must be > 0 when pause_every_ms is set");
  EXPECT_EQ(error_of("[nemesis]\nrestart_mode = \"gone\"\n"),
            "scenarios/x.toml:2:16: [nemesis] restart_mode must be one of \"kept\", \"lost\", \"aof_everysec\", not "
            "\"gone\"");
}

TEST(ScenarioErrors, TomlSyntaxErrorKeepsPosition) {
  EXPECT_EQ(error_of("duration_ms = 1000\nseeds = = 3\n"),
            "scenarios/x.toml:2:9: Error while parsing value: could not determine value type");
  EXPECT_EQ(error_of("seeds = 3\nseeds = 4\n"),
            "scenarios/x.toml:2:9: Error while parsing key-value pair: cannot redefine existing integer 'seeds'");
}

TEST(ScenarioErrors, WorkloadNesting) {
  const Scenario s = parse_scenario(
      "variant = \"reentrant-hash\"\n[workload]\nnest_every = 2\nnested_ttl_ms = 50\nnested_hold_min_ms = 3\n"
      "nested_hold_max_ms = 7\n",
      "scenarios/x.toml");
  EXPECT_EQ(s.config.workload.nest_every, 2u);
  EXPECT_EQ(s.config.workload.nested_ttl_us, 50000);
  EXPECT_EQ(s.config.workload.nested_hold_min_us, 3000);
  EXPECT_EQ(s.config.workload.nested_hold_max_us, 7000);
  const Scenario off = parse_scenario("", "scenarios/x.toml");
  EXPECT_EQ(off.config.workload.nest_every, 0u);
  EXPECT_EQ(off.config.workload.nested_ttl_us, 0);
  EXPECT_EQ(error_of("[workload]\nnest_every = -1\n").substr(0, 40), "scenarios/x.toml:2:14: [workload] nest_e");
  EXPECT_NE(error_of("[workload]\nnested_ttl_ms = 5\n").find("nested_ttl_ms must be 0 (the lock's TTL) or 10"), std::string::npos);
  EXPECT_NE(error_of("[workload]\nnested_hold_min_ms = 9\nnested_hold_max_ms = 2\n").find("nested_hold_max_ms (2) must"),
            std::string::npos);
  EXPECT_NE(error_of("[workload]\nnest = 1\n").find("nest_every, nested_ttl_ms"), std::string::npos);
}

TEST(ScenarioErrors, ThreadsPerProcess) {
  EXPECT_EQ(error_of("[workload]\nthreads_per_process = 0\n"),
            "scenarios/x.toml:2:23: [workload] threads_per_process must be in [1, 64], not 0");
  EXPECT_EQ(error_of("[workload]\nthreads_per_process = 65\n"),
            "scenarios/x.toml:2:23: [workload] threads_per_process must be in [1, 64], not 65");
  EXPECT_EQ(error_of("variant = \"set-nx-ex-del\"\n[workload]\nthreads_per_process = 2\n"),
            "scenarios/x.toml:3:23: [workload] threads_per_process = 2 shares one public lock object between a "
            "process's threads; variant 'set-nx-ex-del' has no public type (those that do: token (Mutex), redlock "
            "(RedlockMutex), redisson-like (RedissonMutex), fenced (FencedMutex), token-wait (ReplicatedMutex), "
            "rw-owned (SharedMutex), semaphore (CountingSemaphore), latch (Latch), fair (FairMutex))");
  EXPECT_EQ(error_of("variant = \"redisson-like\"\n[workload]\nnest_every = 2\nthreads_per_process = 2\n"),
            "scenarios/x.toml:4:23: [workload] threads_per_process = 2 does not combine with nest_every (the threads' "
            "nesting is not simulated yet)");
  EXPECT_EQ(error_of("backend = \"redis\"\n[workload]\nthreads_per_process = 3\n"), "no error");
  EXPECT_EQ(error_of("variant = \"rw-owned\"\n[workload]\nthreads_per_process = 64\nreaders_ppm = 1\n"), "no error");
}

TEST(ScenarioErrors, PermitsSizeOnlyASemaphore) {
  EXPECT_EQ(error_of("[workload]\npermits = 2\n"),
            "scenarios/x.toml:2:11: [workload] permits sizes a semaphore, but variant 'token' is a lock (one holder "
            "at a time); use a semaphore (redisson-semaphore, redisson-permit-expirable, semaphore) or remove `permits`");
  EXPECT_EQ(error_of("variant = \"redisson-semaphore\"\n[workload]\npermits = 0\n"),
            "scenarios/x.toml:3:11: [workload] permits must be in [1, 1000], not 0");
  EXPECT_EQ(error_of("variant = \"redisson-semaphore\"\n[workload]\npermits = 3\n"), "no error");
  EXPECT_EQ(error_of("[workload]\npermits = 1\n"), "no error");
}

TEST(ScenarioErrors, LatchCountOnlyForALatchWithClientsToSpare) {
  EXPECT_EQ(error_of("[workload]\nlatch_count = 2\n"),
            "scenarios/x.toml:2:15: [workload] latch_count sets a count-down latch's count, but variant 'token' is a "
            "lock; use a latch (redisson-latch, latch) or remove `latch_count`");
  EXPECT_EQ(error_of("variant = \"latch\"\n[clients]\ncount = 3\n[workload]\nlatch_count = 4\n"),
            "scenarios/x.toml:4:1: variant 'latch' is a count-down latch of latch_count = 4: it needs at least that "
            "many clients ([clients] count) to count it down");
  EXPECT_EQ(error_of("variant = \"latch\"\n[clients]\ncount = 3\n[workload]\nlatch_count = 3\n"), "no error");
  EXPECT_EQ(error_of("variant = \"redisson-latch\"\n[clients]\ncount = 3\n[workload]\nlatch_count = 2\n"), "no error");
  EXPECT_EQ(error_of("variant = \"latch\"\n[workload]\nthreads_per_process = 2\n"),
            "scenarios/x.toml:3:23: [workload] threads_per_process = 2 shares one lock object between a process's "
            "threads; variant 'latch' is a count-down latch, which its processes count down and await one thread each");
}

TEST(ScenarioErrors, WorkloadCarefulHolder) {
  const Scenario s = parse_scenario(
      "[workload]\ncheck_lease_before_write = true\nwrite_latency_min_us = 300\nwrite_latency_max_us = 900\n",
      "scenarios/x.toml");
  EXPECT_TRUE(s.config.workload.check_lease_before_write);
  EXPECT_EQ(s.config.workload.write_latency_min_us, 300);
  EXPECT_EQ(s.config.workload.write_latency_max_us, 900);
  const Scenario off = parse_scenario("", "scenarios/x.toml");
  EXPECT_FALSE(off.config.workload.check_lease_before_write);
  EXPECT_EQ(off.config.workload.write_latency_min_us, 0);
  EXPECT_EQ(off.config.workload.write_latency_max_us, 0);
  EXPECT_EQ(error_of("[workload]\nwrite_latency_min_us = 900\nwrite_latency_max_us = 300\n"),
            "scenarios/x.toml:3:24: [workload] write_latency_max_us (300) must not be less than write_latency_min_us "
            "(900)");
  EXPECT_EQ(error_of("[workload]\nwrite_latency_min_us = 5\n"),
            "scenarios/x.toml:2:24: [workload] write_latency_max_us (0) must not be less than write_latency_min_us (5)");
  EXPECT_EQ(error_of("[workload]\nwrite_latency_max_us = -1\n"),
            "scenarios/x.toml:2:24: [workload] write_latency_max_us must be in [0, 31536000000000], not -1");
  EXPECT_EQ(error_of("[workload]\ncheck_lease_before_write = \"yes\"\n"),
            "scenarios/x.toml:2:28: [workload] check_lease_before_write must be a boolean (true or false), not a string");
}

TEST(ScenarioErrors, ReplicaPartitionNeedsAReplica) {
  EXPECT_EQ(error_of("[[nodes]]\n[[faults]]\nat_ms = 1\nkind = \"replica_partition\"\nnode = 0\n"),
            "scenarios/x.toml:5:8: [[faults]] replica_partition node 0 is a master; it cuts a replica's replication "
            "link (a [[nodes]] entry with replica_of)");
  EXPECT_EQ(error_of("[[faults]]\nat_ms = 1\nkind = \"replica_partition\"\n"),
            "scenarios/x.toml:1:1: [[faults]] kind \"replica_partition\" needs node");
}

TEST(ScenarioErrors, TokenWaitOptionsAreCheckedAgainstTheVariantAndTheTtl) {
  EXPECT_EQ(error_of("[token_wait]\nreplicas = 1\n"),
            "scenarios/x.toml:1:1: [token_wait] is only for variant = \"token-wait\", not \"token\"");
  EXPECT_EQ(error_of("variant = \"token-wait\"\n[token_wait]\nreplicas = 0\n"),
            "scenarios/x.toml:3:12: [token_wait] replicas must be in [1, 1000], not 0");
  EXPECT_NE(error_of("variant = \"token-wait\"\n[token_wait]\nreplica = 2\n").find("allowed: replicas, timeout_ms"),
            std::string::npos);
  EXPECT_EQ(error_of("variant = \"token-wait\"\n[lock]\nttl_ms = 1000\n[token_wait]\ntimeout_ms = 300\n"),
            "scenarios/x.toml:5:14: [token_wait] token-wait: the WAIT timeout (300 ms) must be at most a quarter of "
            "the TTL (1000 ms): it is spent from the lease");
  EXPECT_NE(error_of("variant = \"token-wait\"\n[lock]\nttl_ms = 500\n").find("scenarios/x.toml:1:11: token-wait: "
                                                                              "the WAIT timeout (200 ms)"),
            std::string::npos);
  EXPECT_EQ(
      error_of("variant = \"token-wait\"\n[lock]\nttl_ms = 3000\n[token_wait]\nreplicas = 2\ntimeout_ms = 300\n"),
      "no error");
}

}  // namespace
}  // namespace lockcheck::sim
