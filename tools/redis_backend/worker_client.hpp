#pragma once
// The redis backend's side of the workload (workload/workload.hpp, written once for every kind of client):
// a worker process's real seams as the workload sees them. The lock is the library's variant over the
// worker's ports, the clock its ClientClock, threads 2..N are real threads (ThreadSpawner), and each thread
// has its own draws and its own connection to the resource server (a hiredis connection is one thread's).
#include <cstdint>
#include <deque>
#include <string>

#include "client_clock.hpp"
#include "model/prng.hpp"
#include "lockcheck/spawner.hpp"
#include "resource_client.hpp"
#include "worker_recorder.hpp"
#include "use_before_write.hpp"
#include "workload/workload_client.hpp"

namespace lockcheck::redis_backend {

// The resource server, whose accesses the worker records once the register's script has decided.
class RecordedResource final : public sim::Resource {
 public:
  RecordedResource(int port, sim::Fencing fencing, int process, WorkerRecorder& out)
      : client_(port, fencing), process_(process), out_(out) {}
  sim::RegisterRead read(std::int64_t fencing_token, int thread) override;
  void write(std::int64_t value, std::int64_t read_version, std::int64_t fencing_token, int thread) override;

 private:
  ResourceClient client_;
  int process_;
  WorkerRecorder& out_;
};

struct WorkerSeams {
  int process = 0;
  LockAlgorithm* lock = nullptr;
  Clock* clock = nullptr;
  Spawner* spawner = nullptr;
  WorkerRecorder* out = nullptr;
  int resource_port = 0;
  sim::Fencing fencing = sim::Fencing::off;
  std::uint64_t seed = 0;
  std::string prng_name;  // the process's draws' name: "client/<process>/<incarnation>"
  // An external client (lockcheck judge): its `use` answer gates each write (judge/use_before_write.hpp).
  judge::ExternalLock* external = nullptr;
};

class WorkerClient final : public sim::WorkloadClient {
 public:
  explicit WorkerClient(WorkerSeams seams) : seams_(std::move(seams)) {}
  int process() const override { return seams_.process; }
  LockAlgorithm& lock() override { return *seams_.lock; }
  Clock& clock() override { return *seams_.clock; }
  Spawner& spawner() override { return *seams_.spawner; }
  sim::OpLog& log() override { return *seams_.out; }
  // Thread 0 (the only one) draws as "<prng_name>", thread k of several as "<prng_name>/thread/<k>".
  sim::ThreadSeams thread_seams(OwnerId thread) override;
  bool gone() const override { return seams_.external != nullptr && seams_.external->hung(); }

 private:
  WorkerSeams seams_;
  std::deque<sim::Prng> prngs_;  // a deque: references handed out stay valid as threads are added
  std::deque<RecordedResource> resources_;
  std::deque<judge::UseBeforeWrite> gated_;
};

}  // namespace lockcheck::redis_backend
