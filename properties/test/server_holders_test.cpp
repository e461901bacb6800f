// mutual_exclusion_server on read-write hash locks whose server events list their holders (rw-owned,
// rw-hash-timestamps): each holder is judged as an owner of its own.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/checkers.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;
using Holders = std::vector<std::pair<std::string, std::string>>;

constexpr std::int64_t kTtlMs = 2000;

// Process `process` asks for the lock (so "lock" is a lock key and the token is known to be its).
void acquired(HistoryBuilder& h, std::int64_t t, std::int64_t process, const std::string& token, bool read) {
  if (read) {
    h.read_invoke(t, process, "acquire");
    h.read_acquire_ok(t + 10, process, token, t + kTtlMs * 1000);
  } else {
    h.invoke(t, process, "acquire");
    h.acquire_ok(t + 10, process, token, t + kTtlMs * 1000);
  }
}

TEST(ServerHolders, TwoWriterHoldersInOneHashAreTwoOwners) {
  HistoryBuilder h(kTtlMs);
  const std::int64_t first = h.hash_event(100'000, "created", 1, {{"a", "write"}}, kTtlMs);
  acquired(h, 100'000, 1, "a", false);
  const std::int64_t second = h.hash_event(300'000, "modified", 2, {{"a", "write"}, {"b", "write"}}, kTtlMs);
  acquired(h, 300'000, 2, "b", false);
  const Verdict verdict = check_mutual_exclusion_server(h.parse());
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{first, second}));
  EXPECT_NE(verdict.cause.find("process 2's write hold (token b) joined"), std::string::npos) << verdict.cause;
  EXPECT_NE(verdict.cause.find("next to process 1's write hold (token a)"), std::string::npos) << verdict.cause;
}

TEST(ServerHolders, AWriterNextToAReaderIsTwoOwners) {
  HistoryBuilder h(kTtlMs);
  const std::int64_t reader = h.hash_event(100'000, "created", 1, {{"r1", "read"}}, kTtlMs);
  acquired(h, 100'000, 1, "r1", true);
  const std::int64_t writer = h.hash_event(300'000, "modified", 2, {{"r1", "read"}, {"w2", "write"}}, kTtlMs);
  const Verdict verdict = check_mutual_exclusion_server(h.parse());
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{reader, writer}));
}

TEST(ServerHolders, ReadersTogetherHold) {
  HistoryBuilder h(kTtlMs);
  h.hash_event(100'000, "created", 1, {{"r1", "read"}}, kTtlMs);
  acquired(h, 100'000, 1, "r1", true);
  h.hash_event(200'000, "modified", 2, {{"r1", "read"}, {"r2", "read"}}, kTtlMs);
  acquired(h, 200'000, 2, "r2", true);
  h.hash_event(300'000, "modified", 3, {{"r1", "read"}, {"r2", "read"}, {"r3", "read"}}, kTtlMs);
  h.hash_event(400'000, "modified", 1, {{"r2", "read"}, {"r3", "read"}}, kTtlMs);  // reader 1 leaves
  EXPECT_EQ(check_mutual_exclusion_server(h.parse()).outcome, Outcome::holds);
}

TEST(ServerHolders, AWriterAfterEveryReaderLeftHolds) {
  HistoryBuilder h(kTtlMs);
  h.hash_event(100'000, "created", 1, {{"r1", "read"}}, kTtlMs);
  acquired(h, 100'000, 1, "r1", true);
  h.hash_event(200'000, "modified", 2, {{"r1", "read"}, {"r2", "read"}}, kTtlMs);
  h.hash_event(300'000, "modified", 1, {{"r2", "read"}}, kTtlMs);
  h.server(400'000, 0, "deleted", 2, "", 400, -1, "EVALSHA");  // the last reader removes the key
  h.hash_event(500'000, "created", 3, {{"w3", "write"}}, kTtlMs);
  acquired(h, 500'000, 3, "w3", false);
  EXPECT_EQ(check_mutual_exclusion_server(h.parse()).outcome, Outcome::holds);
}

// F16 at the server: a writer whose clock runs ahead deletes a live reader's field as stale and walks in.
TEST(ServerHolders, AWriterRemovingALiveReadersFieldIsTwoOwners) {
  HistoryBuilder h(kTtlMs);
  const std::int64_t reader = h.hash_event(100'000, "created", 1, {{"r1", "read"}}, kTtlMs);
  acquired(h, 100'000, 1, "r1", true);
  const std::int64_t removed = h.server(300'000, 0, "deleted", 2, "", 300, -1, "EVALSHA");
  const std::int64_t writer = h.hash_event(300'000, "created", 2, {{"w2", "write"}}, kTtlMs);
  const Verdict verdict = check_mutual_exclusion_server(h.parse());
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_EQ(verdict.witnesses, (std::vector<std::int64_t>{reader, removed, writer}));
  EXPECT_NE(verdict.cause.find("process 1's read hold (token r1) was deleted on node 0 by process 2"),
            std::string::npos)
      << verdict.cause;
  EXPECT_NE(verdict.cause.find("then process 2 joined the key for writing"), std::string::npos) << verdict.cause;
}

TEST(ServerHolders, AFieldRemovedFromTheHashWhileEntitledCountsToo) {
  HistoryBuilder h(kTtlMs);
  h.hash_event(100'000, "created", 1, {{"r1", "read"}}, kTtlMs);
  h.hash_event(200'000, "modified", 3, {{"r1", "read"}, {"r3", "read"}}, kTtlMs);
  h.hash_event(300'000, "modified", 2, {{"r3", "read"}}, kTtlMs);  // process 2 strips reader 1's field
  h.hash_event(300'000, "modified", 2, {{"r3", "read"}, {"w2", "write"}}, kTtlMs);
  acquired(h, 300'000, 2, "w2", false);
  const Verdict verdict = check_mutual_exclusion_server(h.parse());
  EXPECT_EQ(verdict.outcome, Outcome::violated) << to_string(verdict);
  EXPECT_NE(verdict.cause.find("was removed from the hash on node 0 by process 2"), std::string::npos)
      << verdict.cause;
}

// A stale field (its holder's lease long over) removed by the next writer is the lock working.
TEST(ServerHolders, RemovingAFieldWhoseLeaseRanOutHolds) {
  HistoryBuilder h(kTtlMs);
  h.hash_event(100'000, "created", 1, {{"r1", "read"}}, kTtlMs);
  acquired(h, 100'000, 1, "r1", true);
  h.server(2'500'000, 0, "deleted", 2, "", 2'500, -1, "EVALSHA");
  h.hash_event(2'500'000, "created", 2, {{"w2", "write"}}, kTtlMs);
  EXPECT_EQ(check_mutual_exclusion_server(h.parse()).outcome, Outcome::holds);
}

TEST(ServerHolders, HoldersWithAnUnknownModeAreAParseError) {
  const std::string text =
      "{\"i\":0,\"t\":0,\"kind\":\"meta\",\"schema\":1,\"ttl_ms\":1000}\n"
      "{\"i\":1,\"t\":1,\"kind\":\"server\",\"node\":0,\"event\":\"created\",\"key\":\"lock\",\"node_time_ms\":1,"
      "\"holders\":[{\"token\":\"a\",\"mode\":\"exclusive\"}]}\n";
  EXPECT_THROW(parse_history(text), ParseError);
}

}  // namespace
}  // namespace lockcheck::properties
