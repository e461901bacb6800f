// The simulator's side of the workload (workload/workload.hpp, written once for every kind of client): a
// client process's seams as the workload sees them. Its op lines go to the run's History at true (virtual)
// time, its threads are further coroutines of the process (so a pause or a crash takes them all), and they
// share the process's workload PRNG and the world's one Register.
#include "core/world.hpp"
#include "workload/workload.hpp"

namespace lockcheck::sim {
namespace {

class SimOpLog final : public OpLog {
 public:
  SimOpLog(World& world, ClientProcess& process) : world_(world), process_(process) {}
  std::int64_t now_us() override { return world_.scheduler().now(); }
  std::int64_t local_us() override { return process_.local_now(); }
  std::int64_t true_time_of(MonoTime deadline) override { return process_.clock_model().true_time_of(deadline.count()); }
  std::int64_t local_of(MonoTime deadline) override { return deadline.count(); }
  void record(HistoryLine&& line) override { world_.history().record(std::move(line)); }

 private:
  World& world_;
  ClientProcess& process_;
};

// The world's Register, which records each access at true time as it decides.
class SimResource final : public Resource {
 public:
  SimResource(Register& resource, int process) : resource_(resource), process_(process) {}
  RegisterRead read(std::int64_t fencing_token, int thread) override { return resource_.read(process_, fencing_token, thread); }
  void write(std::int64_t value, std::int64_t read_version, std::int64_t fencing_token, int thread) override {
    resource_.write(process_, value, read_version, fencing_token, thread);
  }

 private:
  Register& resource_;
  int process_;
};

class SimWorkloadClient final : public WorkloadClient {
 public:
  SimWorkloadClient(World& world, ClientProcess& process)
      : process_(process), log_(world, process), resource_(world.resource(), process.id()) {}
  int process() const override { return process_.id(); }
  LockAlgorithm& lock() override { return process_.lock(); }
  Clock& clock() override { return process_.clock(); }
  Spawner& spawner() override { return process_; }
  OpLog& log() override { return log_; }
  ThreadSeams thread_seams(OwnerId) override { return ThreadSeams{process_.workload_prng(), resource_}; }

 private:
  ClientProcess& process_;
  SimOpLog log_;
  SimResource resource_;
};

}  // namespace

Task<void> run_workload(World& world, ClientProcess& process) {
  // World::start_client refused threads_per_process > 1 with a variant without a public type.
  SimWorkloadClient client(world, process);
  const RunConfig& config = world.config();
  co_await run_workload(config.workload, config.variant, config.duration_us, client);
}

}  // namespace lockcheck::sim
