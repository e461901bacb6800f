// Who changed a lock key on real Redis, and what it held after: from the node's one ordered stream of
// keyevent notifications and MONITOR lines (as node_observer.cpp reads it), never from the clients' ops.
#include "attribution.hpp"

#include <gtest/gtest.h>

#include "lockcheck/sha1.hpp"

namespace lockcheck::redis_backend {
namespace {

constexpr const char* kP1 = "127.0.0.1:50001";
constexpr const char* kP2 = "127.0.0.1:50002";
constexpr std::int64_t kNodeMs = 1'795'458'556'000;  // the node's wall clock at the start of a test

MonitorLine line(std::int64_t node_ms, const std::string& source, std::vector<std::string> argv) {
  return MonitorLine{node_ms * 1000 + 250, 0, source, std::move(argv)};
}

KeyState string_key(const std::string& value, std::int64_t expire_at_ms) { return KeyState{true, value, {}, expire_at_ms}; }
KeyState hash_key(std::vector<std::string> fields, std::int64_t expire_at_ms) { return KeyState{true, "", std::move(fields), expire_at_ms}; }

StateRead read_of(KeyState state, std::int64_t node_ms) { return StateRead{{{"lock", std::move(state)}}, node_ms}; }

class AttributionTest : public ::testing::Test {
 protected:
  // A node whose lock key is absent, and two workers that named their connections.
  AttributionTest() : stream(0, {"lock"}, {{"lock", KeyState{}}}, sink) {
    stream.command(line(kNodeMs, kP1, {"CLIENT", "SETNAME", worker_client_name(1, 0)}));
    stream.command(line(kNodeMs, kP2, {"client", "setname", worker_client_name(2, 3)}));
  }
  std::vector<Record> records() {
    std::vector<Record> all = sink.take();
    std::stable_sort(all.begin(), all.end(), [](const Record& a, const Record& b) { return a.t_us < b.t_us; });
    return all;
  }
  void note(std::int64_t t, const std::string& event, const std::string& key = "lock") { stream.notification(t, t - 1000, event, key); }

  RecordSink sink;
  NodeAttribution stream;
};

TEST(ClientName, NamesTheWorkerProcess) {
  EXPECT_EQ(worker_client_name(3, 1), "lockcheck-p3-1");
  EXPECT_EQ(process_of_client_name("lockcheck-p3-1"), 3);
  EXPECT_EQ(process_of_client_name("lockcheck-p12-0"), 12);
  EXPECT_FALSE(process_of_client_name(kObserverClientName));
  EXPECT_FALSE(process_of_client_name("lockcheck-p3"));
  EXPECT_FALSE(process_of_client_name("lockcheck-px-1"));
  EXPECT_FALSE(process_of_client_name("orders-service"));
}

// SET k v NX PX n notifies `set` then `expire` before its line: one write, by the line's connection.
TEST_F(AttributionTest, TheCommandsConnectionIsTheWriter) {
  note(100, "set");
  note(100, "expire");
  stream.command(line(kNodeMs + 1, kP2, {"SET", "lock", "tok2", "NX", "PX", "500"}));
  stream.state_read(read_of(string_key("tok2", kNodeMs + 501), kNodeMs + 2));
  const std::vector<Record> out = records();
  ASSERT_EQ(out.size(), 1u);
  const Json& fields = out[0].fields;
  EXPECT_EQ(out[0].t_us, 100);
  EXPECT_EQ(fields["event"], "created");
  EXPECT_EQ(fields["by"], 2);
  EXPECT_EQ(fields["command"], "set");
  EXPECT_EQ(fields["value"], "tok2");
  EXPECT_EQ(fields["expire_at_ms"], kNodeMs + 501);  // from the read
  EXPECT_EQ(fields["node_time_ms"], kNodeMs + 2);
  EXPECT_EQ(fields["since_us"], -900);
  EXPECT_EQ(stream.gaps().unobserved + stream.gaps().unattributed, 0);
}

// Two clients change the key before one read: a release's DEL (inside its script) and another client's SET.
// Both are attributed, in order; the release's line comes from the script's caller.
TEST_F(AttributionTest, AReleaseAndAnAcquireBeforeOneRead) {
  stream.state_read(read_of(string_key("tok1", kNodeMs + 400), kNodeMs));  // p1 held the key
  const std::string release = "if redis.call('GET',KEYS[1])==ARGV[1] then return redis.call('DEL',KEYS[1]) end return 0";
  stream.command(line(kNodeMs + 10, kP1, {"EVAL", release, "1", "lock", "tok1"}));
  stream.command(line(kNodeMs + 10, "lua", {"GET", "lock"}));
  note(200, "del");
  stream.command(line(kNodeMs + 10, "lua", {"DEL", "lock"}));
  note(201, "set");
  note(201, "expire");
  stream.command(line(kNodeMs + 11, kP2, {"SET", "lock", "tok2", "NX", "PX", "500"}));
  stream.state_read(read_of(string_key("tok2", kNodeMs + 511), kNodeMs + 12));
  const std::vector<Record> out = records();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].fields["event"], "deleted");
  EXPECT_EQ(out[0].fields["by"], 1);
  EXPECT_EQ(out[0].fields["command"], "del");
  EXPECT_EQ(out[0].fields["script"], sha1_hex(release));
  EXPECT_EQ(out[1].fields["event"], "created");
  EXPECT_EQ(out[1].fields["by"], 2);
  EXPECT_FALSE(out[1].fields.contains("script"));
  EXPECT_EQ(stream.gaps().unobserved + stream.gaps().unattributed, 0);
}

// A key changed twice before a read: the earlier write's state is derived from its command (value, and the
// deadline counted from its MONITOR line on the node clock); the later one's is the read's.
TEST_F(AttributionTest, AnEarlierWriteIsDerivedFromItsCommand) {
  note(100, "set");
  note(100, "expire");
  stream.command(line(kNodeMs + 1, kP1, {"set", "lock", "tok1", "nx", "px", "500"}));
  note(150, "del");
  stream.command(line(kNodeMs + 2, kP1, {"DEL", "lock"}));
  note(200, "set");
  stream.command(line(kNodeMs + 3, kP2, {"SET", "lock", "tok2"}));
  stream.state_read(read_of(string_key("tok2", -1), kNodeMs + 4));
  const std::vector<Record> out = records();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].fields["value"], "tok1");
  EXPECT_EQ(out[0].fields["expire_at_ms"], kNodeMs + 1 + 500);
  EXPECT_EQ(out[0].fields["by"], 1);
  EXPECT_EQ(out[1].fields["event"], "deleted");
  EXPECT_EQ(out[2].fields["value"], "tok2");
  EXPECT_EQ(out[2].fields["expire_at_ms"], -1);
  EXPECT_EQ(stream.gaps().unobserved + stream.gaps().unattributed, 0);
}

// rw-owned: a reader's script writes the hash three times; every line carries the state after the script,
// as the simulator's nodes record it, and a second reader joins before the read.
TEST_F(AttributionTest, ReadWriteHashHoldersPerScript) {
  stream.command(line(kNodeMs + 1, kP1, {"EVALSHA", "ABCDEF0123", "1", "lock", "aaa", "900"}));
  note(100, "hset");
  stream.command(line(kNodeMs + 1, "lua", {"HSET", "lock", "mode", "read"}));
  note(100, "hset");
  stream.command(line(kNodeMs + 1, "lua", {"HSET", "lock", "r:aaa", "1"}));
  stream.command(line(kNodeMs + 1, "lua", {"PTTL", "lock"}));
  note(100, "expire");
  stream.command(line(kNodeMs + 1, "lua", {"PEXPIRE", "lock", "900"}));
  stream.command(line(kNodeMs + 2, kP2, {"EVALSHA", "abcdef0123", "1", "lock", "bbb", "900"}));
  note(120, "hset");
  stream.command(line(kNodeMs + 2, "lua", {"HSET", "lock", "r:bbb", "1"}));
  note(120, "expire");
  stream.command(line(kNodeMs + 2, "lua", {"PEXPIRE", "lock", "900"}));
  stream.state_read(read_of(hash_key({"mode", "r:aaa", "r:bbb"}, kNodeMs + 902), kNodeMs + 3));
  const std::vector<Record> out = records();
  ASSERT_EQ(out.size(), 5u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].fields["by"], 1);
    EXPECT_EQ(out[i].fields["script"], "abcdef0123");
    EXPECT_EQ(out[i].fields["holders"], Json::parse(R"([{"token":"aaa","mode":"read"}])"));
    EXPECT_EQ(out[i].fields["expire_at_ms"], kNodeMs + 901);
  }
  EXPECT_EQ(out[0].fields["event"], "created");
  EXPECT_EQ(out[1].fields["event"], "modified");
  EXPECT_EQ(out[2].fields["event"], "expire_set");
  EXPECT_EQ(out[3].fields["by"], 2);
  EXPECT_EQ(out[3].fields["holders"], Json::parse(R"([{"token":"aaa","mode":"read"},{"token":"bbb","mode":"read"}])"));
  EXPECT_EQ(out[4].fields["expire_at_ms"], kNodeMs + 902);
  EXPECT_EQ(stream.gaps().unobserved + stream.gaps().unattributed, 0);
}

// reentrant-hash: the single field (the owner id) is the key's value, as on the mock; an inner release that
// drops the count to 0 deletes the key within the same script.
TEST_F(AttributionTest, ReentrantHashReleaseThatDeletes) {
  stream.state_read(read_of(hash_key({"aaa"}, kNodeMs + 900), kNodeMs));
  stream.command(line(kNodeMs + 1, kP1, {"EVALSHA", "feed", "1", "lock", "aaa"}));
  note(100, "hincrby");
  stream.command(line(kNodeMs + 1, "lua", {"HINCRBY", "lock", "aaa", "-1"}));
  note(100, "del");
  stream.command(line(kNodeMs + 1, "lua", {"DEL", "lock"}));
  stream.state_read(read_of(KeyState{}, kNodeMs + 2));
  const std::vector<Record> out = records();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].fields["event"], "modified");
  EXPECT_EQ(out[0].fields["value"], "");  // the key is gone after the script
  EXPECT_EQ(out[1].fields["event"], "deleted");
  EXPECT_EQ(out[1].fields["by"], 1);
  stream.command(line(kNodeMs + 3, kP2, {"EVALSHA", "feed", "1", "lock", "bbb"}));
  note(200, "hincrby");
  stream.command(line(kNodeMs + 3, "lua", {"HINCRBY", "lock", "bbb", "1"}));
  note(200, "expire");
  stream.command(line(kNodeMs + 3, "lua", {"PEXPIRE", "lock", "900"}));
  stream.finish();
  const std::vector<Record> more = records();
  ASSERT_EQ(more.size(), 2u);
  EXPECT_EQ(more[0].fields["value"], "bbb");
  EXPECT_EQ(more[0].fields["by"], 2);
  EXPECT_EQ(more[0].fields["expire_at_ms"], kNodeMs + 903);
  // No read after it: the node's clock at `t` is at most the line's plus the event's window (1 ms here).
  EXPECT_EQ(more[0].fields["node_time_ms"], kNodeMs + 3 + 1);
  EXPECT_EQ(stream.gaps().unobserved + stream.gaps().unattributed, 0);
}

// The observer's thread was starved for two seconds (a loaded box): a release that ran at 0.456 s is read with
// the whole backlog at 2.678 s, while its process has a later inner release in flight. Placed by when it was
// read, the deletion fell inside that inner release (a false reentrancy violation, seen in CI). Its MONITOR
// line says when the node ran it: the record goes there. A line whose node clock cannot be mapped (moved since,
// or drifting) keeps the time it was read.
TEST(Attribution, ALineReadLateGoesWhereItsNodeRanIt) {
  RecordSink sink;
  const std::int64_t node_wall_at_start_us = kNodeMs * 1000;
  NodeAttribution stream(0, {"lock"}, {{"lock", hash_key({"aaa"}, kNodeMs + 2000)}}, sink, {},
                         [&](std::int64_t node_wall_us, std::int64_t) -> std::optional<std::int64_t> {
                           if (node_wall_us >= node_wall_at_start_us + 3'000'000) return std::nullopt;  // moved since
                           return node_wall_us - node_wall_at_start_us;
                         });
  stream.command(line(kNodeMs, kP1, {"CLIENT", "SETNAME", worker_client_name(1, 0)}));
  stream.command(line(kNodeMs + 456, kP1, {"EVALSHA", "feed", "1", "lock", "aaa"}));
  stream.notification(2'678'482, 2'678'400, "hincrby", "lock");
  stream.command(line(kNodeMs + 456, "lua", {"HINCRBY", "lock", "aaa", "-1"}));
  stream.notification(2'678'482, 2'678'400, "del", "lock");
  stream.command(line(kNodeMs + 456, "lua", {"DEL", "lock"}));
  stream.command(line(kNodeMs + 3100, kP1, {"EVALSHA", "feed", "1", "lock", "aaa"}));
  stream.notification(3'200'000, 3'199'000, "hincrby", "lock");
  stream.command(line(kNodeMs + 3100, "lua", {"HINCRBY", "lock", "aaa", "1"}));
  stream.finish();
  const std::vector<Record> out = sink.take();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].fields["event"], "deleted");
  EXPECT_EQ(out[0].t_us, 456'250);  // the line's stamp: 250 us past the node's millisecond
  EXPECT_EQ(out[1].t_us, 456'250);
  EXPECT_LE(out[1].fields["since_us"].get<std::int64_t>(), out[1].t_us);
  EXPECT_EQ(out[2].t_us, 3'200'000);
}

// The same lag, for a grant: the node's clock at the change is the line's stamp (rounded up, so the TTL counted
// from `t` never ends later than the node's), not the clock of the read that follows the backlog. That read ran
// 2.2 s later: from it, a 2 s lease granted at 0.5 s would have looked over before it began.
TEST(Attribution, ALateLinesGrantIsTimedByItsStamp) {
  RecordSink sink;
  NodeAttribution stream(0, {"lock"}, {{"lock", KeyState{}}}, sink, {},
                         [](std::int64_t node_wall_us, std::int64_t) -> std::optional<std::int64_t> { return node_wall_us - kNodeMs * 1000; });
  stream.command(line(kNodeMs, kP2, {"CLIENT", "SETNAME", worker_client_name(2, 0)}));
  stream.command(line(kNodeMs + 500, kP2, {"EVALSHA", "feed", "1", "lock", "bbb"}));
  stream.notification(2'678'482, 2'678'400, "hincrby", "lock");
  stream.command(line(kNodeMs + 500, "lua", {"HINCRBY", "lock", "bbb", "1"}));
  stream.notification(2'678'482, 2'678'400, "expire", "lock");
  stream.command(line(kNodeMs + 500, "lua", {"PEXPIRE", "lock", "2000"}));
  stream.state_read(read_of(hash_key({"bbb"}, kNodeMs + 2500), kNodeMs + 2678));
  const std::vector<Record> out = sink.take();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].fields["event"], "created");
  EXPECT_EQ(out[0].t_us, 500'250);
  EXPECT_EQ(out[0].fields["node_time_ms"], kNodeMs + 501);
  EXPECT_EQ(out[1].fields["event"], "expire_set");
  EXPECT_EQ(out[1].fields["expire_at_ms"], kNodeMs + 2500);
  EXPECT_EQ(out[1].fields["node_time_ms"], kNodeMs + 501);
}

// rw-two-keys: readers count themselves in a counter key (INCR ... DECR); each change is derived from the
// counter before it, and the key is a lock key like the lock's own.
TEST(Attribution, ACounterKeyIsDerivedFromItsIncrements) {
  RecordSink sink;
  NodeAttribution stream(0, {"lock", "lock:readers"}, {{"lock", KeyState{}}, {"lock:readers", KeyState{}}}, sink);
  stream.command(line(kNodeMs, kP1, {"CLIENT", "SETNAME", worker_client_name(1, 0)}));
  stream.command(line(kNodeMs, kP2, {"CLIENT", "SETNAME", worker_client_name(2, 0)}));
  stream.notification(100, 90, "incrby", "lock:readers");
  stream.command(line(kNodeMs + 1, kP1, {"INCR", "lock:readers"}));
  stream.notification(100, 90, "expire", "lock:readers");
  stream.command(line(kNodeMs + 1, kP1, {"PEXPIRE", "lock:readers", "900"}));
  stream.notification(110, 90, "incrby", "lock:readers");
  stream.command(line(kNodeMs + 2, kP2, {"INCRBY", "lock:readers", "1"}));
  stream.notification(120, 90, "incrby", "lock:readers");
  stream.command(line(kNodeMs + 3, kP1, {"DECR", "lock:readers"}));
  stream.finish();
  const std::vector<Record> out = sink.take();
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].fields["event"], "created");
  EXPECT_EQ(out[0].fields["value"], "1");
  EXPECT_EQ(out[0].fields["key"], "lock:readers");
  EXPECT_EQ(out[2].fields["event"], "modified");
  EXPECT_EQ(out[2].fields["value"], "2");
  EXPECT_EQ(out[2].fields["by"], 2);
  EXPECT_EQ(out[2].fields["expire_at_ms"], kNodeMs + 901);  // INCR keeps the deadline
  EXPECT_EQ(out[3].fields["value"], "1");
  EXPECT_EQ(stream.gaps().unobserved + stream.gaps().unattributed, 0);
}

// Expiry is the server's, even when a client's command found the key expired (lazily): by -1, not counted.
TEST_F(AttributionTest, ExpiryIsTheServersOwn) {
  stream.state_read(read_of(string_key("tok1", kNodeMs + 5), kNodeMs));
  note(100, "expired");
  note(100, "set");
  note(100, "expire");
  stream.command(line(kNodeMs + 9, kP2, {"SET", "lock", "tok2", "NX", "PX", "500"}));
  stream.state_read(read_of(string_key("tok2", kNodeMs + 509), kNodeMs + 10));
  const std::vector<Record> out = records();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].fields["event"], "expired");
  EXPECT_EQ(out[0].fields["by"], -1);
  EXPECT_EQ(out[0].fields["command"], "");
  EXPECT_EQ(out[0].fields["expire_at_ms"], kNodeMs + 5);
  EXPECT_EQ(out[1].fields["by"], 2);
  EXPECT_EQ(stream.gaps().unobserved + stream.gaps().unattributed, 0);
}

// A connection that never said its name: asked of the server (CLIENT LIST); if it has none, the change
// stays by -1 and is counted with its reason.
TEST(Attribution, AnUnnamedConnectionIsAskedForThenCounted) {
  RecordSink sink;
  int asked = 0;
  NodeAttribution stream(0, {"lock"}, {{"lock", KeyState{}}}, sink, [&](const std::string& address) -> std::optional<std::string> {
    ++asked;
    if (address == kP1) return worker_client_name(4, 0);
    return std::nullopt;
  });
  stream.notification(100, 90, "set", "lock");
  stream.command(line(kNodeMs, kP1, {"SET", "lock", "a"}));
  stream.notification(200, 190, "del", "lock");
  stream.command(line(kNodeMs, kP2, {"DEL", "lock"}));
  stream.finish();
  std::vector<Record> out = sink.take();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].fields["by"], 4);
  EXPECT_EQ(out[1].fields["by"], -1);
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(stream.gaps().unattributed, 1);
  EXPECT_EQ(stream.gaps().reasons.count("a change by a connection without a worker's client name"), 1u);
}

// What the model cannot derive is taken from a read that follows at once, and counted when none does.
TEST_F(AttributionTest, AnUnderivableChangeIsReadOrCounted) {
  note(100, "set");
  stream.command(line(kNodeMs, kP1, {"SET", "lock", "a"}));
  note(110, "append");
  stream.command(line(kNodeMs, kP1, {"APPEND", "lock", "b"}));
  stream.state_read(read_of(string_key("ab", -1), kNodeMs));
  EXPECT_EQ(stream.gaps().unobserved, 1);  // APPEND has no server event; the read gave the state after it
  note(200, "hset");
  stream.command(line(kNodeMs, kP2, {"RESTORE", "lock", "0", "..."}));  // not a hash write the model knows
  note(210, "expire");
  stream.command(line(kNodeMs, kP2, {"PEXPIRE", "lock", "100"}));
  stream.state_read(read_of(hash_key({"x"}, kNodeMs + 100), kNodeMs));
  const std::vector<Record> out = records();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[1].fields.value("state_unread", false));  // the hash's fields were never known
  EXPECT_EQ(out[1].fields["by"], 2);
  EXPECT_FALSE(out[2].fields.contains("state_unread"));  // the read followed it
  EXPECT_EQ(stream.gaps().unobserved, 2);
  EXPECT_EQ(stream.gaps().unattributed, 0);
}

// A read that contradicts the derived state means the model missed something: counted, never papered over.
TEST_F(AttributionTest, AReadThatContradictsTheDerivationIsCounted) {
  note(100, "set");
  stream.command(line(kNodeMs, kP1, {"SET", "lock", "a"}));
  stream.state_read(read_of(string_key("zzz", -1), kNodeMs));
  EXPECT_EQ(stream.gaps().unobserved, 1);
  EXPECT_EQ(stream.gaps().reasons.count("a derived state that the next read contradicted"), 1u);
  EXPECT_EQ(records().at(0).fields["value"], "zzz");  // the read is the fact
}

// A notification whose line never came (the node went away) is counted.
TEST_F(AttributionTest, ANotificationWithoutItsLineIsCounted) {
  note(100, "set");
  stream.finish();
  EXPECT_TRUE(records().empty());
  EXPECT_EQ(stream.gaps().unobserved, 1);
}

}  // namespace
}  // namespace lockcheck::redis_backend

namespace lockcheck::redis_backend {
namespace {

Record op_record(std::int64_t t, int process, const char* type, const char* f) {
  return Record{t, "op", Json{{"type", type}, {"process", process}, {"f", f}, {"key", "lock"}}};
}

Record server_line(std::int64_t t, std::int64_t since, std::int64_t by, const char* event) {
  return Record{t, "server", Json{{"node", 0}, {"event", event}, {"key", "lock"}, {"value", ""}, {"by", by}, {"since_us", since}}};
}

// A reader's release deleted the key; the observer read it after the worker had recorded the reply. The
// deletion came before that reply, so it goes inside the release, where the checkers look for it.
TEST(PlaceServerEvents, AChangeGoesBeforeTheReplyToItsCommand) {
  std::vector<Record> records = {op_record(1000, 3, "invoke", "release"), op_record(1290, 3, "ok", "release"),
                                 server_line(1330, 1260, 3, "deleted")};
  place_server_events(records);
  EXPECT_EQ(records[2].t_us, 1289);
}

// An op that ended `info` (its command may still run after the timeout) or never ended bounds nothing.
TEST(PlaceServerEvents, AnUnansweredOpBoundsNothing) {
  std::vector<Record> records = {op_record(1000, 3, "invoke", "release"), op_record(1290, 3, "info", "release"),
                                 op_record(1295, 3, "invoke", "acquire"), op_record(1300, 3, "ok", "acquire"),
                                 server_line(1330, 1260, 3, "deleted"), op_record(2000, 4, "invoke", "acquire"),
                                 server_line(2330, 2260, 4, "created")};
  place_server_events(records);
  EXPECT_EQ(records[4].t_us, 1330);  // the release's command may have run after its timeout
  EXPECT_EQ(records[6].t_us, 2330);
}

// Two ops of one process in flight (the workload and its renewal thread): the later completion bounds it.
// An op invoked after the line was read cannot have caused it (one still open when it was read would leave
// it where it is); the server's own lines (by -1) stay.
TEST(PlaceServerEvents, EveryOpInvokedBeforeCountsAndNoLaterOne) {
  std::vector<Record> records = {op_record(100, 1, "invoke", "acquire"), op_record(200, 1, "ok", "acquire"),
                                 op_record(1000, 1, "invoke", "release"), op_record(1010, 1, "invoke", "renew"),
                                 op_record(1100, 1, "ok", "release"), op_record(1200, 1, "ok", "renew"),
                                 op_record(1260, 1, "invoke", "acquire"), server_line(1250, 1050, 1, "expire_set"),
                                 server_line(5000, 4000, -1, "expired")};
  place_server_events(records);
  EXPECT_EQ(records[7].t_us, 1199);
  EXPECT_EQ(records[8].t_us, 5000);
}

// The observer saw its socket empty (since_us) after the worker had its reply: Redis wrote the reply first
// and the notification later. The window does not exclude the release that caused it.
TEST(PlaceServerEvents, TheObserversWindowExcludesNothing) {
  std::vector<Record> records = {op_record(343737, 3, "invoke", "release"), op_record(343993, 3, "ok", "release"),
                                 server_line(344036, 344002, 3, "deleted")};
  place_server_events(records);
  EXPECT_EQ(records[2].t_us, 343992);
}

// An external client's library refreshed its lease from a timer, 3 s after its last op ended: the command
// ran when the observer read it, not inside that op (which would put a refresh before the expiry it followed).
// A line read within the observer's lag of the op's end still goes inside it.
TEST(PlaceServerEvents, AnExternalClientsBackgroundCommandKeepsItsTime) {
  std::vector<Record> records = {op_record(1'000'000, 3, "invoke", "acquire"), op_record(1'290'000, 3, "ok", "acquire"),
                                 server_line(4'300'000, 4'280'000, 3, "expire_set"), op_record(5'000'000, 4, "invoke", "acquire"),
                                 op_record(5'100'000, 4, "ok", "acquire"), server_line(5'130'000, 5'090'000, 4, "created")};
  place_server_events(records, /*commands_outside_ops=*/true);
  EXPECT_EQ(records[2].t_us, 4'300'000);
  EXPECT_EQ(records[5].t_us, 5'099'999);
  place_server_events(records);
  EXPECT_EQ(records[2].t_us, 1'289'999);  // the catalogue's workers: every command inside an op
}

// A node's lines keep their stream order: a line is never placed after the one that follows it.
TEST(PlaceServerEvents, ANodesLinesKeepTheirOrder) {
  std::vector<Record> records = {op_record(900, 1, "invoke", "release"), op_record(900, 2, "invoke", "acquire"),
                                 op_record(960, 2, "ok", "acquire"), op_record(990, 1, "ok", "release"),
                                 server_line(1000, 950, 1, "deleted"), server_line(1000, 950, 2, "created")};
  place_server_events(records);
  EXPECT_EQ(records[5].t_us, 959);
  EXPECT_EQ(records[4].t_us, 959);  // the deletion came first, so no later than the creation
}

// A slot migration on a cluster: the source's MIGRATE deletes the key and the target's RESTORE-ASKING (the
// source node's own connection, never named) creates it. Both are the cluster's doing (by -1, as the simulator
// records them), not a change by an unknown client; the restored value comes from the read after it.
TEST_F(AttributionTest, ASlotMigrationIsTheClustersDoing) {
  stream.state_read(read_of(string_key("tok1", kNodeMs + 900), kNodeMs));
  note(100, "del");
  stream.command(line(kNodeMs + 1, "127.0.0.1:60001", {"migrate", "127.0.0.1", "7001", "", "0", "5000", "keys", "lock"}));
  note(200, "restore");
  stream.command(line(kNodeMs + 2, "127.0.0.1:60002", {"RESTORE-ASKING", "lock", "898", std::string("\x00\x04tok1", 6)}));
  stream.state_read(read_of(string_key("tok1", kNodeMs + 900), kNodeMs + 3));
  const std::vector<Record> out = records();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].fields["event"], "deleted");
  EXPECT_EQ(out[0].fields["by"], -1);
  EXPECT_EQ(out[0].fields["command"], "migrate");
  EXPECT_EQ(out[1].fields["event"], "created");
  EXPECT_EQ(out[1].fields["by"], -1);
  EXPECT_EQ(out[1].fields["command"], "restore");
  EXPECT_EQ(out[1].fields["value"], "tok1");
  EXPECT_EQ(out[1].fields["expire_at_ms"], kNodeMs + 900);
  EXPECT_EQ(stream.gaps().unobserved + stream.gaps().unattributed, 0);
}

}  // namespace
}  // namespace lockcheck::redis_backend
