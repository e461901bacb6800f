#include "core/world.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>

#include "model/meta_line.hpp"
#include "model/renew_op.hpp"
#include "lockcheck/variants/registry.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/public_types.hpp"
#include "redis/server/node.hpp"
#include "lockcheck/assert.hpp"

namespace lockcheck::sim {

World::World(const RunConfig& config, std::uint64_t seed)
    : config_(config),
      seed_(seed),
      resource_(history_, scheduler_, config.workload.fencing),
      network_(config_, seed),
      eviction_prng_(derive_seed(seed, "eviction")),
      replication_(config_, seed, scheduler_, nodes_, *this),
      blocking_pops_(scheduler_, nodes_, *this),
      call_deadlines_(scheduler_, std::bind_front(&World::time_out, this)) {
  for (std::size_t i = 0; i < config_.nodes.size(); ++i) {
    nodes_.push_back(std::make_unique<SimNode>(static_cast<int>(i), config_.nodes[i], history_, scheduler_));
  }
  for (const LinkOverride& entry : config_.link_overrides) {
    if (entry.process < 0 || entry.process >= static_cast<int>(config_.clients.size()) || entry.node < 0 ||
        entry.node >= static_cast<int>(config_.nodes.size())) {
      throw std::invalid_argument(fmt::format("link override {} -> {} names a process or node that does not exist",
                                              entry.process, entry.node));
    }
  }
  for (auto& node : nodes_) {
    const int node_id = node->id();
    node->mock().set_publish_sink([this, node_id](std::int64_t client_id, const Reply& push) {
      route_message(node_id, client_id, push);
    });
  }
  routing_ = master_nodes(config_);
  if (config_.cluster.shards > 0) {
    if (config_.nodes.size() != cluster_nodes(config_.cluster).size()) {
      throw std::invalid_argument("a cluster's nodes are cluster_nodes(config.cluster)");
    }
    cluster_ = std::make_unique<ClusterTopology>(config_.cluster, nodes_);
    cluster_faults_ = std::make_unique<ClusterFaults>(parts(), *cluster_);
    // Every node is a service of its own: the client's ClusterPort picks the node for each command.
    routing_.clear();
    for (const auto& node : nodes_) routing_.push_back(node->id());
  }
  if (config_.sentinel.sentinels > 0) {
    if (cluster_) throw std::invalid_argument("a scenario has a [cluster] or a [sentinel], not both");
    if (config_.nodes.size() != sentinel_nodes(config_.sentinel).size()) {
      throw std::invalid_argument("a sentinel deployment's nodes are sentinel_nodes(config.sentinel)");
    }
    sentinel_ = std::make_unique<SentinelTopology>(config_.sentinel, nodes_);
    sentinel_faults_ = std::make_unique<SentinelFaults>(parts(), *sentinel_);
    // Every node and every sentinel is a service of its own: the client's SentinelPort picks the master.
    routing_.clear();
    for (int endpoint = 0; endpoint < sentinel_->endpoint_count(); ++endpoint) routing_.push_back(endpoint);
    network_.grow_to(routing_.size());
  }
  if (routing_.empty()) throw std::invalid_argument("a scenario needs at least one master node");
  for (const int endpoint : routing_) {
    // Every service reaches a node, or a sentinel (an endpoint after the nodes): send() relies on it.
    LOCKCHECK_ASSERT(endpoint >= 0 && (static_cast<std::size_t>(endpoint) < nodes_.size() ||
                                       (sentinel_ && endpoint < sentinel_->endpoint_count())));
  }
  for (std::size_t i = 0; i < config_.clients.size(); ++i) {
    const ClockConfig& clock = config_.clients[i].clock;
    clients_.push_back(std::make_unique<ClientProcess>(*this, static_cast<int>(i), ClockModel(clock.wall_offset_us, clock.drift_ppm),
                                                       derive_seed(seed, fmt::format("client/{}", i))));
  }
}

WorldParts World::parts() {
  return WorldParts{config_, scheduler_, history_, network_, replication_, nodes_, static_cast<int>(config_.clients.size())};
}

World::~World() {
  // Destroy suspended workloads before the nodes and scheduler they point into.
  for (auto& client : clients_) {
    if (client->alive()) client->crash();  // a crashed one has nothing left to destroy
  }
}

std::uint64_t World::connection_epoch(int process, std::size_t service) const {
  const int node = service < routing_.size() ? routing_[service] : -1;
  if (node < 0 || (sentinel_ && sentinel_->is_sentinel(node))) return 0;
  // A dropped connection (a timeout) is a new one too, though the node sees its session only when used.
  const std::uint64_t dropped = connection_order_.number(process, node);
  return (static_cast<std::uint64_t>(node + 1) << 48) ^ nodes_[static_cast<std::size_t>(node)]->session_epoch(process) ^
         (dropped * 0x9E3779B97F4A7C15ull);
}

void World::send(ClientProcess& process, std::size_t service, Command command, std::shared_ptr<PendingCall> pending) {
  LOCKCHECK_ASSERT(pending != nullptr && !pending->settled);  // a call is settled once, after it was sent
  const int node = service < routing_.size() ? routing_[service] : -1;
  const int id = process.id();
  call_deadlines_.add(process, scheduler_.now() + config_.command_timeout_us, node, pending);
  if (node < 0) {
    process.schedule(scheduler_.now(), [pending] { pending->settle(CallResult::failed(CallStatus::not_sent, "no such node")); });
    return;
  }
  if (network_.drops_request(id, node)) return;  // the timeout settles it
  // The incarnation the request's connection reaches: a crash of the node ends that connection.
  const std::uint64_t incarnation = incarnation_of(node);
  const TrueTime due_us = scheduler_.now() + network_.delay_us(id, node) + network_.slow_by_us(node);
  const TrueTime arrival_us = connection_order_.arrival_us(id, node, process.epoch(), incarnation,
                                                           ConnectionOrder::Direction::request, due_us);
  // The last use of `pending` here: moved, not copied (each copy of a shared_ptr is an atomic increment).
  const Connection connection{incarnation, connection_order_.number(id, node)};
  scheduler_.at(arrival_us,
                [this, id, node, connection, sender = process.epoch(), command = std::move(command),
                 pending = std::move(pending)]() mutable {
                  // Sent by an incarnation of the process that has since crashed and been restarted: its
                  // connection ended at the restart (World::start_client), so the command runs nowhere.
                  const ClientProcess& client = *clients_[static_cast<std::size_t>(id)];
                  if (client.alive() && client.epoch() != sender) return;
                  deliver(id, node, connection, command, std::move(pending));
                });
}

void World::time_out(int process, int node, PendingCall& pending) {
  // Settled only now: the failure's text allocates, and nearly every call has its reply by then.
  if (node >= 0) drop_connection(process, node);  // as the production port does with a connection that timed out
  pending.settle(CallResult::failed(CallStatus::unknown, "command timed out"));
}

void World::drop_connection(int process, int node) {
  const std::uint64_t dropped = connection_order_.number(process, node);
  const TrueTime end_arrives_us = connection_order_.reconnect(process, node, scheduler_.now());
  if (static_cast<std::size_t>(node) >= nodes_.size()) return;  // a sentinel keeps no session
  SimNode& target = *nodes_[static_cast<std::size_t>(node)];
  if (!target.up()) return;  // its sessions ended with it
  target.drop_command_connection(process, dropped);
  scheduler_.at(end_arrives_us, [&target, process, dropped] { target.end_dropped_connection(process, dropped); });
}

void World::deliver(int process, int node_id, Connection connection, const Command& command,
                    std::shared_ptr<PendingCall> pending) {
  const std::uint64_t incarnation = connection.node_incarnation;
  // send() named a process and an endpoint of this world.
  LOCKCHECK_ASSERT(process >= 0 && static_cast<std::size_t>(process) < clients_.size() && node_id >= 0);
  if (sentinel_ && sentinel_->is_sentinel(node_id)) {
    reply_to(process, node_id, sentinel_->answer(node_id, command), std::move(pending));
    return;
  }
  LOCKCHECK_ASSERT(static_cast<std::size_t>(node_id) < nodes_.size());  // not a sentinel: a data node
  SimNode& node = *nodes_[static_cast<std::size_t>(node_id)];
  ClientProcess& client = *clients_[static_cast<std::size_t>(process)];
  if (!node.up()) {
    // The host answers with a reset: the client learns at once that nothing ran.
    // Clients retry a down node hundreds of times a run: the text is built by hand (fmt::format here was 2.3% of
    // explore_bench's guided instructions under callgrind).
    client.schedule(scheduler_.now() + network_.delay_us(process, node_id), [pending, node_id] {
      pending->settle(CallResult::failed(CallStatus::not_sent, "connection refused by node " + std::to_string(node_id)));
    });
    return;
  }
  if (node.crashes() != incarnation) {
    // Sent on a connection to the incarnation that crashed: the restarted node never saw that connection and
    // resets it (TCP). Nothing ran there, but the caller cannot tell whether the old incarnation ran it first.
    client.schedule(scheduler_.now() + network_.delay_us(process, node_id), [pending, node_id] {
      pending->settle(CallResult::failed(CallStatus::unknown, fmt::format("connection reset: node {} restarted", node_id)));
    });
    return;
  }
  if (sentinel_ && config_.sentinel.min_replicas_to_write > 0 && node.replica_of() < 0) sentinel_faults_->gate_writes(node);
  bool changed = false;
  // Sent on a connection the client has dropped since: it runs on that connection's session if its end has not
  // reached the node yet, and its reply goes nowhere (the client closed the connection).
  const bool on_dropped = connection.number != connection_order_.number(process, node_id);
  std::optional<Reply> reply = on_dropped      ? node.execute_on_dropped(process, connection.number, command, changed)
                               : client.alive() ? node.execute(process, command, changed)
                                                : node.execute_from_crashed(process, command, changed);
  if (changed && node.replica_of() < 0) replication_.replicate(node);
  blocking_pops_.send_late_replies(node_id);  // this command may have served clients blocked in BLPOP & co.
  // Taken even for a dropped connection's WAIT, which answers nobody: left on the node, the next command would.
  const auto wait = node.take_wait_request();
  if (on_dropped) return;
  LOCKCHECK_ASSERT(reply.has_value());  // a command on the current connection always runs and answers
  if (wait && node.replica_of() < 0) {
    replication_.start_wait(process, node_id, *wait, std::move(pending));
    return;
  }
  if (node.blocked(process)) {
    blocking_pops_.park(process, node_id, std::move(pending));
    return;
  }
  reply_to(process, node_id, std::move(*reply), std::move(pending));
}

std::uint64_t World::incarnation_of(int node) const {
  return static_cast<std::size_t>(node) < nodes_.size() ? nodes_[static_cast<std::size_t>(node)]->crashes() : 0;
}

void World::reply_to(int process, int node_id, Reply&& reply, std::shared_ptr<PendingCall> pending) {
  LOCKCHECK_ASSERT(process >= 0 && static_cast<std::size_t>(process) < clients_.size());  // a process of this run
  ClientProcess& client = *clients_[static_cast<std::size_t>(process)];
  if (network_.drops_reply(process, node_id)) return;
  const TrueTime due_us = scheduler_.now() + network_.delay_us(process, node_id);
  client.schedule(connection_order_.arrival_us(process, node_id, client.epoch(), incarnation_of(node_id),
                                               ConnectionOrder::Direction::reply, due_us),
                  [pending = std::move(pending), reply = std::move(reply)]() mutable {
                    pending->settle_reply(reply);
                  });
}

void World::connection_lost(int process, int node_id, std::shared_ptr<PendingCall> pending, std::string detail) {
  client(process).schedule(scheduler_.now() + network_.delay_us(process, node_id),
                           [pending = std::move(pending), detail = std::move(detail)] {
                             pending->settle(CallResult::failed(CallStatus::unknown, detail));
                           });
}

void World::route_message(int node_id, std::int64_t client_id, const Reply& push) {
  LOCKCHECK_ASSERT(node_id >= 0 && static_cast<std::size_t>(node_id) < nodes_.size());  // a node's publish sink
  const std::int64_t process = client_id - SimNode::kSubscriberSession;
  if (process < 0 || process >= static_cast<std::int64_t>(clients_.size()) || push.elements.size() != 3) return;
  const int id = static_cast<int>(process);
  // The node a message comes from is the service it serves now; a demoted node's messages reach nobody.
  std::size_t service = routing_.size();
  for (std::size_t s = 0; s < routing_.size(); ++s) {
    if (routing_[s] == node_id) service = s;
  }
  if (service == routing_.size() || network_.drops_reply(id, node_id)) return;
  ClientProcess& client = *clients_[static_cast<std::size_t>(id)];
  client.schedule(scheduler_.now() + network_.delay_us(id, node_id),
                  [&client, service, channel = push.elements[1].text, payload = push.elements[2].text]() mutable {
                    client.receive_message(service, channel, std::move(payload));
                  });
}

void World::start_maintenance() {
  for (std::size_t i = 0; i < nodes_.size(); ++i) schedule_maintenance(static_cast<int>(i));
}

void World::schedule_maintenance(int node_id) {
  scheduler_.after(config_.active_expiry_interval_us, [this, node_id] { maintenance_tick(node_id); });
}

void World::maintenance_tick(int node_id) {
  LOCKCHECK_ASSERT(node_id >= 0 && static_cast<std::size_t>(node_id) < nodes_.size());  // scheduled for a node of this world
  SimNode& node = *nodes_[static_cast<std::size_t>(node_id)];
  const std::int64_t interval = config_.active_expiry_interval_us;
  // What the master expires reaches its replicas, as Redis's DEL for each expired key does (a promoted replica
  // must not bring back a lock key its master had expired: the explore gate at 1000 runs, seed 377).
  if (node.replica_of() < 0 && node.active_expiry()) replication_.replicate(node);
  // AOF everysec: what a crash can keep is the data as of the last whole second.
  if (scheduler_.now() % 1000000 < interval) node.fsync();
  // Bounded by the run's end: maintenance stops rescheduling itself past it.
  if (scheduler_.now() + interval <= config_.duration_us) schedule_maintenance(node_id);
}

bool World::evict_lock_key(SimNode& target) {
  const LockShape shape = lock_shape_of(config_);
  std::vector<std::string> keys{config_.workload.key};
  for (const LockShape::DerivedKey& derived : shape.derived_keys) keys.push_back(derived.key);
  keys.insert(keys.end(), shape.state_keys.begin(), shape.state_keys.end());
  std::vector<std::string> present;
  for (const std::string& key : keys) {
    if (target.has_key(key)) present.push_back(key);
  }
  if (present.empty()) return false;
  const bool evicted = target.evict(present[eviction_prng_.below(present.size())]);
  LOCKCHECK_ASSERT(evicted);  // a key the node has live is there to evict
  return true;
}

void World::start_client(int id) {
  ClientProcess& process = client(id);
  // Started once at 0 ms, then only after a crash: a live process's connections are not replaced.
  LOCKCHECK_ASSERT(!process.started() || !process.alive());
  for (auto& simulated : nodes_) simulated->end_closing_connection(id);  // a restart connects afresh
  VariantParams params{config_.scripts};
  params.token_wait = config_.token_wait;
  params.permits = config_.workload.permits;
  params.latch_count = config_.workload.latch_count;
  params.spawner = &process;
  params.watchdog.renew_divisor = config_.renewal.renew_divisor;
  params.watchdog.max_renewals = config_.renewal.max_renewals;
  params.watchdog.max_hold = Millis(config_.renewal.max_hold_us / 1000);
  params.watchdog.observer = [this, &process](const RenewalEvent& event) { record_renewal(process, event); };
  params.wrap_in_watchdog = config_.renewal.watchdog;
  if (config_.workload.threads_per_process > 1 && public_type_of(config_.variant) == nullptr) {
    throw InvalidArgument(fmt::format("threads_per_process > 1 needs a variant with a public lock type, not '{}'",
                                      config_.variant));
  }
  auto lock = make_lock(config_.variant, lock_port(process), process.clock(), process.entropy(), config_.lock, params);
  process.start(std::move(lock), run_workload(*this, process));
}

Port& World::lock_port(ClientProcess& process) {
  if (sentinel_) return sentinel_->make_port(process.port());
  return cluster_ ? cluster_->make_port(process.port(), process.clock()) : static_cast<Port&>(process.port());
}

void World::record_renewal(ClientProcess& process, const RenewalEvent& event) {
  HistoryLine line(scheduler_.now(), "op");
  add_renew_op_fields(line, event, process.id(), process.local_now(),
                      process.clock_model().true_time_of(event.valid_until.count()), event.valid_until.count());
  history_.record(std::move(line));
}

std::uint64_t World::run() {
  LOCKCHECK_ASSERT(scheduler_.events_run() == 0);  // a world runs once, from its start
  Json meta = history_meta(config_, seed_);
  if (cluster_) meta["shards"] = cluster_->meta();  // which node serves which slots at the start
  if (sentinel_) meta["sentinel"] = sentinel_->meta();
  history_.record(0, "meta", meta);
  start_maintenance();
  std::vector<FaultSpec> schedule = config_.faults;
  for (auto& drawn : draw_nemesis_schedule(config_, seed_)) schedule.push_back(drawn);
  for (const FaultSpec& fault : schedule) {
    scheduler_.at(fault.at_us, [this, fault] { apply(fault); });
  }
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    const int id = static_cast<int>(i);
    // Faults at 0 ms come first: a client a crash at 0 ms killed stays down until its restart, and one that
    // restart already started is not started twice.
    scheduler_.at(0, [this, id] {
      if (!client(id).started()) start_client(id);
    });
  }
  const std::uint64_t events = scheduler_.run_until(config_.duration_us, config_.max_events);
  LOCKCHECK_ASSERT(scheduler_.now() <= config_.duration_us);  // nothing past the run's end ran
  // The closing line says the run reached its end: without it `lockcheck check` refuses a history cut short.
  if (events < config_.max_events) history_.record(config_.duration_us, "end", Json::object());
  return events;
}

}  // namespace lockcheck::sim
