#include "core/resource.hpp"

namespace lockcheck::sim {

RegisterRead Register::read(int process) {
  history_.record(scheduler_.now(), "resource",
                  Json{{"process", process}, {"f", "read"}, {"value", value_}, {"version", version_}});
  return {value_, version_};
}

bool Register::write(int process, std::int64_t value, std::int64_t read_version, std::int64_t fencing_token) {
  const bool stale = read_version != version_;
  const bool accepted = !fencing_ || fencing_token >= highest_fencing_;
  if (accepted) {
    value_ = value;
    ++version_;
    if (fencing_token > highest_fencing_) highest_fencing_ = fencing_token;
  }
  history_.record(scheduler_.now(), "resource",
                  Json{{"process", process}, {"f", "write"}, {"value", value}, {"read_version", read_version},
                       {"version", version_}, {"fencing", fencing_token}, {"accepted", accepted}, {"stale", stale}});
  return accepted;
}

}  // namespace lockcheck::sim
