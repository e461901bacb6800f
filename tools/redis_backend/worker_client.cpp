#include "worker_client.hpp"

namespace lockcheck::redis_backend {
sim::RegisterRead RecordedResource::read(std::int64_t fencing_token, int thread) {
  const ResourceRead read = client_.read(fencing_token);
  out_.record("resource", sim::resource_read_fields(process_, read, client_.fencing(), fencing_token, thread));
  return read;
}

void RecordedResource::write(std::int64_t value, std::int64_t read_version, std::int64_t fencing_token, int thread) {
  const ResourceWrite wrote = client_.write(value, read_version, fencing_token);
  out_.record("resource", sim::resource_write_fields(process_, value, read_version, wrote.version, fencing_token,
                                                     wrote.accepted, wrote.stale, thread));
}

sim::ThreadSeams WorkerClient::thread_seams(OwnerId thread) {
  const std::string name = thread == 0 ? seams_.prng_name : seams_.prng_name + "/thread/" + std::to_string(thread);
  sim::Prng& prng = prngs_.emplace_back(sim::derive_seed(seams_.seed, name));
  RecordedResource& resource = resources_.emplace_back(seams_.resource_port, seams_.fencing, seams_.process, *seams_.out);
  if (seams_.external != nullptr) return sim::ThreadSeams{prng, gated_.emplace_back(resource, *seams_.external)};
  return sim::ThreadSeams{prng, resource};
}

}  // namespace lockcheck::redis_backend
