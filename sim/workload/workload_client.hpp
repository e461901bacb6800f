#pragma once
// What one client process offers the workload: the lock (the library's variant, unchanged), its seams, and
// per thread the draws and the resource connection. The simulator implements it over a ClientProcess
// (core/workload.cpp), the redis backend's worker over real seams (tools/redis_backend/worker_client.hpp);
// an external client process would be a third implementation, not a third workload.
#include <string>

#include "model/prng.hpp"
#include "lockcheck/clock.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/owned_lock.hpp"
#include "lockcheck/spawner.hpp"
#include "workload/op_log.hpp"
#include "workload/resource_seam.hpp"

namespace lockcheck::sim {

// What one thread of the process draws from and writes to.
struct ThreadSeams {
  Prng& prng;
  Resource& resource;
};

class WorkloadClient {
 public:
  virtual ~WorkloadClient() = default;
  virtual int process() const = 0;  // the op lines' "process"
  virtual LockAlgorithm& lock() = 0;
  virtual Clock& clock() = 0;
  // Runs threads 2..N of the process beside thread 1 (threads_per_process > 1): the simulator's further
  // coroutines of the process (paused and crashed with it), real threads on the redis backend.
  virtual Spawner& spawner() = 0;
  virtual OpLog& log() = 0;
  // Thread `thread`'s draws and resource (0: the process's only thread). Called once per thread, from the
  // thread that starts the workload, before any thread runs; the references outlive the workload. Whether
  // threads share them is the client's: the simulator's share the process's PRNG and the one Register, the
  // worker's each have their own (a hiredis connection is one thread's).
  virtual ThreadSeams thread_seams(OwnerId thread) = 0;
  // The process can do nothing more (its external lock client hung and was killed: lockcheck judge), so its
  // threads start no further round instead of recording a stream of unsent requests.
  virtual bool gone() const { return false; }
};

}  // namespace lockcheck::sim
