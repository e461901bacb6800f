#pragma once
// Who holds a read-write lock kept as one hash with a field per holder (rw-owned, rw-hash-timestamps), read
// from the field names alone so the rule needs no table of variants: a field "<prefix>:<token>" whose prefix
// is `r` or `read` is a read hold, `w` or `write` a write hold. Other fields name no holder (rw-owned's
// "mode"; a reentrant hash's hold field, whose single field the history reports as the `value` instead).
// Shared by the simulator and the real-Redis backend so both write the same `holders` (sim/README.md).
#include <optional>
#include <string>
#include <vector>

#include "model/history.hpp"

namespace lockcheck::sim {

struct HashHolder {
  std::string token;
  std::string mode;  // "read" | "write"
};

std::optional<HashHolder> hash_holder(const std::string& field_name);

// The history's `holders` array for a hash with these field names (in their order), or nullopt when no
// field names a holder (then the line carries no `holders`, as for every non-holder lock).
std::optional<Json> holders_json(const std::vector<std::string>& field_names);

}  // namespace lockcheck::sim
