#pragma once
// Keyspace notifications do not say which client caused a server event. This fills in `by` from the
// clients' own operations, and only where the history leaves one answer:
// - a write (created, overwritten) whose value carries a token that exactly one process's acquire returned is
//   that process's; so is a created hash whose field names carry one (a renew or delete is not judged by
//   the token: a foreign renew leaves the owner's token in place); so is a read-write hash event whose
//   `holders` list exactly one token the node's previous read state did not (the holder that joined);
// - otherwise the one process whose matching operation (acquire for writes; acquire, release or renew for a
//   hash field change; release for deletes; renew or acquire for deadline changes) was in flight while the
//   event can have happened (after the node's previous event was observed, up to this one's observation).
// Events left with several candidates or none keep by = -1 and are counted, so the run can report the
// server-level properties as unknown instead of guessing.
#include <cstdint>
#include <vector>

#include "record_sink.hpp"

namespace lockcheck::redis_backend {

// `records` sorted by time; returns how many server events on lock keys stayed unattributed.
std::int64_t attribute_server_events(std::vector<Record>& records);

}  // namespace lockcheck::redis_backend
