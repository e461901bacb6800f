#pragma once
// What a worker process needs of the run's configuration (variant, scripts, lock options, command timeout,
// workload), written by the run to a JSON file the worker reads. The worker never re-reads the scenario file,
// so a configuration changed in memory (`--backend` overrides, a comparison's per-cell variant) is what runs.
// Keep it in step with LockOptions and WorkloadConfig: a field missing here runs with its default.
#include <string>
#include <vector>

#include "model/run_config.hpp"

namespace lockcheck::redis_backend {

// Throws std::runtime_error when the file cannot be written or read.
// `cluster_addresses`: on a cluster, the address each node announces (the worker's ClusterPort maps them to
// its links); on a [sentinel], each endpoint's address as the sentinels name it (the data nodes, then the
// sentinels: the worker's SentinelPort maps them to its links); empty otherwise.
// `other_named_ports`: by service, the other port the servers may name it by, which an external client's
// fronts rewrite too (routed_fronts.hpp): on a cluster each node's own port, which it announces once restarted
// (its cluster-announce-port was set at run time); on a [sentinel] each data node's own port (INFO's
// tcp_port), then each sentinel's announced front; empty otherwise.
void write_worker_config(const sim::RunConfig& config, const std::string& path,
                         const std::vector<std::string>& cluster_addresses = {}, const std::vector<int>& other_named_ports = {});
sim::RunConfig read_worker_config(const std::string& path);
std::vector<std::string> read_cluster_addresses(const std::string& path);
std::vector<int> read_other_named_ports(const std::string& path);

}  // namespace lockcheck::redis_backend
