#include "lockcheck/variants/registry.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "lockcheck/assert.hpp"
#include "lockcheck/errors.hpp"
#include "lockcheck/variants/watchdog_lock.hpp"

namespace lockcheck {

const VariantRow* find_variant(std::string_view id) {
  const std::span<const VariantRow> rows = variant_rows();
  const auto found = std::find_if(rows.begin(), rows.end(), [&](const VariantRow& row) { return row.id == id; });
  return found == rows.end() ? nullptr : &*found;
}

const VariantRow& variant_row(std::string_view id) {
  if (const VariantRow* row = find_variant(id)) return *row;
  throw InvalidArgument(fmt::format("unknown lock variant '{}'; known: {}", id, fmt::join(variant_ids(), ", ")));
}

const std::vector<std::string>& variant_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> out;
    for (const VariantRow& row : variant_rows()) out.emplace_back(row.id);
    return out;
  }();
  return ids;
}

std::string watchdog_refusal(const std::string& id, bool has_renew_script) {
  const VariantRow* row = find_variant(id);
  if (row == nullptr) return "";
  switch (row->renewal) {
    case Renewal::by_watchdog:
      return "";
    case Renewal::in_background:
      return fmt::format("variant \"{}\" already renews in the background", id);
    case Renewal::with_renew_script:
      if (has_renew_script) return "";
      return fmt::format("variant \"{}\" can renew only with a renew.lua ([scripts] renew, or a third file to --scripts)",
                         id);
    case Renewal::refused:
      // An empty refusal would read "a watchdog may wrap it" to make_lock(): every refused row says why.
      LOCKCHECK_ASSERT(!row->refusal.empty());
      return std::string(row->refusal);
  }
  return "";
}

LockShape lock_shape(const std::string& id, const std::string& key, std::size_t masters) {
  const VariantRow& row = variant_row(id);
  return row.shape == nullptr ? LockShape{} : row.shape(key, masters);
}

std::unique_ptr<LockAlgorithm> make_lock(const std::string& id, Port& port, Clock& clock, Entropy& entropy,
                                         const LockOptions& options, const VariantParams& params) {
  const VariantRow& row = variant_row(id);
  LOCKCHECK_ASSERT(row.make != nullptr);  // every row of the catalogue builds its lock
  if (row.renewal == Renewal::in_background && params.spawner == nullptr) {
    throw InvalidArgument(fmt::format("lock variant '{}' renews in the background and needs a Spawner", id));
  }
  if (!params.wrap_in_watchdog) return row.make(port, clock, entropy, options, params);
  if (const std::string refused = watchdog_refusal(id, !params.scripts.renew.empty()); !refused.empty()) {
    throw InvalidArgument(fmt::format("a watchdog cannot wrap this variant: {}", refused));
  }
  if (params.spawner == nullptr) throw InvalidArgument(fmt::format("a watchdog over '{}' needs a Spawner", id));
  return std::make_unique<WatchdogLock>(row.make(port, clock, entropy, options, params), clock, *params.spawner,
                                        options.ttl, params.watchdog);
}

}  // namespace lockcheck
