#pragma once
// A client that did not answer a request within its reply bound (reply_bound.hpp), as the worker records it
// (a "client_hung" line in its output) and the run reports it (HUNG in the summary, an error in JUnit).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace lockcheck::judge {

struct ClientHang {
  int process = 0;
  std::int64_t id = 0;   // the request's id
  std::string op;        // acquire, use, renew, release
  std::int64_t bound_ms = 0;
  std::int64_t running_ms = 0;  // of the wait, the time the client was not paused
  std::int64_t waited_ms = 0;   // the whole wait, pauses included
  std::string stderr_tail;      // the last of what the client wrote on standard error

  nlohmann::ordered_json to_json() const;
  static ClientHang from_json(const nlohmann::ordered_json& fields);
  // One line for the run's summary: which process, which request, how long, what the client last said.
  std::string describe() const;
};

}  // namespace lockcheck::judge
