// A lock script that broke its contract during a run is found in the history, whatever op it broke in: a
// renewal's breach is only an `info` op with the words in its detail, never a server error.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/script_contract.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

TEST(ScriptContractBreach, FoundInARenewalsUnknownOutcome) {
  HistoryBuilder b;
  b.invoke(0, 1, "acquire");
  b.acquire_ok(1'000, 1, "tokA", 900'000);
  b.invoke(300'000, 1, "renew", "tokA");
  b.op(301'000, {{"type", "info"}, {"process", 1}, {"f", "renew"}, {"key", "lock"}, {"token", "tokA"}, {"result", "unknown"},
                 {"detail", "renew of lock 'lock' failed: ERR renew.lua broke the lock script contract: it returned (integer) 2"}});
  const std::optional<ContractBreach> breach = first_script_contract_breach(b.parse());
  ASSERT_TRUE(breach.has_value());
  EXPECT_EQ(describe(*breach),
            "t=0.301 s, process 1: renew of lock 'lock' failed: ERR renew.lua broke the lock script contract: it returned "
            "(integer) 2");
}

TEST(ScriptContractBreach, AServerRefusalIsNone) {
  HistoryBuilder b;
  b.invoke(0, 1, "acquire");
  b.op(1'000, {{"type", "fail"}, {"process", 1}, {"f", "acquire"}, {"key", "lock"}, {"error", true},
               {"detail", "acquire of lock 'lock' failed: CROSSSLOT Keys in request don't hash to the same slot"}});
  EXPECT_EQ(first_script_contract_breach(b.parse()), std::nullopt);
}

}  // namespace
}  // namespace lockcheck::properties
