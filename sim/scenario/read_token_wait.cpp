// [token_wait]: the options of variant "token-wait" (how many replicas WAIT must hear from, and its timeout).
#include <fmt/format.h>

#include "lockcheck/errors.hpp"
#include "scenario/readers.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::sim::scenario_detail {

void read_token_wait(const Section& top, const std::string& variant, const LockOptions& lock, TokenWaitOptions& out) {
  const auto table = top.table("token_wait");
  if (!table) {
    if (!variant_has(variant, &VariantRow::waits_for_replicas)) return;
    // The defaults must still fit the file's TTL: say so here rather than when the first run starts.
    try {
      validate_token_wait_options(out, lock);
    } catch (const InvalidArgument& error) {
      top.fail_at("variant", fmt::format("{}; set [token_wait] timeout_ms", error.what()));
    }
    return;
  }
  // Options that would be ignored suggest a typo in the variant.
  if (!variant_has(variant, &VariantRow::waits_for_replicas)) {
    table->fail_here(fmt::format("[token_wait] is only for variant = \"token-wait\", not \"{}\"", variant));
  }
  table->allow_only({"replicas", "timeout_ms"});
  table->read_integer("replicas", out.replicas, 1, 1000);
  if (auto timeout = table->integer("timeout_ms", 1, kMaxMillis)) out.wait_timeout = Millis(*timeout);
  try {
    validate_token_wait_options(out, lock);
  } catch (const InvalidArgument& error) {
    table->fail_at("timeout_ms", fmt::format("[token_wait] {}", error.what()));
  }
}

}  // namespace lockcheck::sim::scenario_detail
