#pragma once
// Every lock variant by its catalogue id (shared/DESIGN.md), built over the given seams. The simulator,
// the command line and the comparison reports construct variants only through here. Each variant is one row
// (variant_row.hpp) of the table in variant_table.cpp; the functions below only look rows up.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lockcheck/clock.hpp"
#include "lockcheck/entropy.hpp"
#include "lockcheck/lock_algorithm.hpp"
#include "lockcheck/lock_options.hpp"
#include "lockcheck/port.hpp"
#include "lockcheck/variants/variant_params.hpp"
#include "lockcheck/variants/variant_row.hpp"

namespace lockcheck {

// Every row, in catalogue order.
std::span<const VariantRow> variant_rows();
// The row of `id`; nullptr when there is none.
const VariantRow* find_variant(std::string_view id);
// Throws InvalidArgument naming the known ids when `id` is unknown.
const VariantRow& variant_row(std::string_view id);
// Whether catalogue id `id` is a row with `flag` set (false for an id the catalogue lacks): what a reader of
// scenario files or a tool asks instead of spelling an id ("script", "token-wait").
inline bool variant_has(std::string_view id, bool VariantRow::*flag) {
  const VariantRow* row = find_variant(id);
  return row != nullptr && row->*flag;
}

// The ids make_lock() accepts, in catalogue order.
const std::vector<std::string>& variant_ids();

// Why `id` cannot be wrapped in a watchdog (VariantParams::wrap_in_watchdog), or "" when it can:
// `watchdog`, `watchdog-unchecked`, `client-reentrant` and `redisson-like` already renew in the background,
// and `script` renews only with a renew.lua (`has_renew_script`). Unknown ids are make_lock's to reject.
std::string watchdog_refusal(const std::string& id, bool has_renew_script);

// `masters`: the nodes the lock is given (Redlock's independent masters). Throws InvalidArgument for an
// unknown id.
LockShape lock_shape(const std::string& id, const std::string& key, std::size_t masters);

// Throws InvalidArgument naming the known ids when `id` is unknown.
std::unique_ptr<LockAlgorithm> make_lock(const std::string& id, Port& port, Clock& clock, Entropy& entropy,
                                         const LockOptions& options, const VariantParams& params = {});

}  // namespace lockcheck
