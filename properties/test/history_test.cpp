#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "history_builder.hpp"
#include "properties/history.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

TEST(History, ParsesEveryKindWithIndicesAndTimes) {
  HistoryBuilder b(1000, false, 9'000'000);
  b.invoke(100, 1, "acquire");
  b.set_nx_px(200, 1, "tok1", 1000);
  b.acquire_ok(300, 1, "tok1", 900'000, 0);
  b.read(400, 1, 0);
  b.write(500, 1, 0, 1, true, false);
  b.fault(600, {{"fault", "pause"}, {"process", 1}, {"duration_us", 5}});
  History history = b.parse();
  ASSERT_EQ(history.events.size(), 8u);
  EXPECT_EQ(history.meta.ttl_ms, 1000);
  EXPECT_EQ(history.end_us(), 9'000'000);
  const auto& op = std::get<Op>(history.events[1]);
  EXPECT_EQ(op.i, 1);
  EXPECT_EQ(op.t, 100);
  const auto& expire_set = std::get<ServerEvent>(history.events[3]);
  EXPECT_EQ(expire_set.t, 200);  // the server's expire_set shares the create's t
  EXPECT_EQ(expire_set.expire_at_ms, 1000);
  const auto& ok = std::get<Op>(history.events[4]);
  EXPECT_EQ(ok.type, OpType::ok);
  EXPECT_EQ(ok.fn, OpFn::acquire);
  EXPECT_EQ(ok.valid_until_us, 900'000);
  const auto& created = std::get<ServerEvent>(history.events[2]);
  EXPECT_EQ(created.event, ServerEventKind::created);
  EXPECT_EQ(created.expire_at_ms, -1);
  EXPECT_EQ(std::get<FaultEvent>(history.events[7]).duration_us, 5);
  EXPECT_TRUE(std::get<ResourceEvent>(history.events[6]).accepted);
}

std::string parse_error(const std::string& text) {
  try {
    parse_history(text);
  } catch (const ParseError& error) {
    return error.what();
  }
  return "no error";
}

constexpr const char* kMeta = R"({"i":0,"t":0,"kind":"meta","schema":1,"ttl_ms":1000})";

TEST(History, ErrorsNameTheLineAndTheProblem) {
  std::string meta = std::string(kMeta) + "\n";
  EXPECT_EQ(parse_error(meta + "{oops\n").substr(0, 30), "history line 2: not valid JSON");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1e999})" "\n").substr(0, 30), "history line 2: not valid JSON");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1.5,"kind":"op"})" "\n"),
            "history line 2: field 't' must be an integer, got 1.5");
  EXPECT_EQ(parse_error(meta + R"({"i":2,"t":1,"kind":"op"})" "\n"), "history line 2: 'i' is 2, expected 1");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1,"kind":"bogus"})" "\n"),
            "history line 2: unknown kind 'bogus' (expected meta, op, resource, fault, server or end)");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1,"kind":"op","type":"ok","f":"acquire","key":"k"})" "\n"),
            "history line 2: missing integer field 'process'");
  EXPECT_EQ(parse_error(meta + "\n" + R"({"i":1,"t":5,"kind":"fault","fault":"heal"})" "\n" +
                        R"({"i":2,"t":4,"kind":"fault","fault":"heal"})"),
            "history line 4: 't' goes backwards (4 after 5)");
  EXPECT_EQ(parse_error(R"({"i":0,"t":0,"kind":"op"})"), "history line 1: the first line must be the 'meta' line");
  EXPECT_EQ(parse_error(R"({"i":0,"t":0,"kind":"meta","schema":2,"ttl_ms":1})"),
            "history line 1: unsupported schema 2 (this checker reads schema 1)");
  EXPECT_EQ(parse_error(""), "history line 0: empty history (no meta line)");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1,"kind":"server","node":0,"event":"vanished","key":"k",)"
                               R"("node_time_ms":1})"),
            "history line 2: unknown server event 'vanished'");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1,"kind":"fault","fault":"meteor"})"),
            "history line 2: unknown fault 'meteor'");
}

// A fault line names a kind (model/fault.hpp's rows) or an event that follows one, each parsed once into
// the enum the checkers compare, never a string; the real backend's Sentinel-chosen failover among them.
TEST(History, FaultLinesAreParsedIntoTheirKindOrFollowUp) {
  std::string meta = std::string(kMeta) + "\n";
  const History history = parse_history(meta + R"({"i":1,"t":1,"kind":"fault","fault":"pause","process":0,"duration_us":5})" "\n"
                                                R"({"i":2,"t":2,"kind":"fault","fault":"resume","process":0})" "\n"
                                                R"({"i":3,"t":3,"kind":"fault","fault":"sentinel_failover","node":1,"from":0})" "\n");
  const auto& pause = std::get<FaultEvent>(history.events[1]);
  EXPECT_TRUE(pause.is(sim::FaultKind::pause));
  EXPECT_EQ(pause.name(), "pause");
  const auto& resume = std::get<FaultEvent>(history.events[2]);
  EXPECT_FALSE(resume.kind.has_value());
  EXPECT_TRUE(resume.is(sim::FaultFollowUp::resume));
  EXPECT_TRUE(std::get<FaultEvent>(history.events[3]).is(sim::FaultFollowUp::sentinel_failover));
  EXPECT_FALSE(std::get<FaultEvent>(history.events[3]).is(sim::FaultKind::failover));  // as before: not the scheduled kind
}

// A line of the simple shape whose field has another type than wanted is read by the JSON parser, whose
// message names the value.
TEST(History, ErrorsOnAFieldOfTheWrongTypeQuoteTheValue) {
  std::string meta = std::string(kMeta) + "\n";
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1,"kind":"op","type":"ok","process":"2","f":"acquire"})"),
            "history line 2: field 'process' must be an integer, got \"2\"");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1,"kind":"op","type":7,"process":2,"f":"acquire"})"),
            "history line 2: field 'type' must be a string, got 7");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1,"kind":"op","type":"ok","process":2,"f":"release","error":1})"),
            "history line 2: field 'error' must be true or false");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":9223372036854775808,"kind":"end"})"),
            "history line 2: field 't' does not fit in a signed 64-bit integer");
  EXPECT_EQ(parse_error(R"({"i":0,"t":0,"kind":"meta","schema":1,"ttl_ms":1,"seed":-1})"),
            "history line 1: field 'seed' must be a non-negative integer");
  EXPECT_EQ(parse_error(R"({"i":0,"t":0,"kind":"meta","schema":1,"ttl_ms":1,"lock_keys":3})"),
            "history line 1: field 'lock_keys' must be an array");
}

// The checkers add times and turn a node's milliseconds into microseconds: a time beyond 2^60 us (or its
// milliseconds) is refused at parse time, naming the field, before any of that arithmetic could overflow (the
// history fuzzer: a node time of 1.7e17 ms overflowed mutual_exclusion_server's grant).
TEST(History, TimesBeyondWhatTheCheckersCanAddAreRefused) {
  std::string meta = std::string(kMeta) + "\n";
  const std::string server = R"({"i":1,"t":1,"kind":"server","node":0,"event":"created","key":"k","by":0,)";
  EXPECT_EQ(parse_error(meta + server + R"("node_time_ms":176722555555600000,"expire_at_ms":1767225602000})"),
            "history line 2: field 'node_time_ms' is out of range (176722555555600000 is beyond 1152921504606846)");
  EXPECT_EQ(parse_error(meta + server + R"("node_time_ms":0,"expire_at_ms":-1152921504606847})"),
            "history line 2: field 'expire_at_ms' is out of range (-1152921504606847 is beyond 1152921504606846)");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1152921504606846977,"kind":"end"})"),
            "history line 2: field 't' is out of range (1152921504606846977 is beyond 1152921504606846976)");
  EXPECT_EQ(parse_error(meta + R"({"i":1,"t":1,"kind":"op","type":"ok","process":0,"f":"acquire","token":"a",)"
                               R"("valid_until":-1152921504606846977})"),
            "history line 2: field 'valid_until' is out of range (-1152921504606846977 is beyond 1152921504606846976)");
  EXPECT_EQ(parse_error(meta + server + R"("node_time_ms":1152921504606846,"expire_at_ms":-1})"), "no error");
}

TEST(History, ReadsTheSameFromLinesAsFromText) {
  const std::vector<std::string> lines = {
      kMeta,
      R"({"i":1,"t":3,"kind":"op","type":"invoke","process":2,"f":"acquire","key":"k"})",
      R"({"i":2,"t":4,"kind":"server","node":0,"event":"created","key":"k","value":"a","by":2,"node_time_ms":0,)"
      R"("holders":[{"token":"a","mode":"read"}]})",
      R"({"i":3,"t":5,"kind":"end"})",
  };
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  const History from_lines = parse_history_lines(lines);
  const History from_text = parse_history(text);
  ASSERT_EQ(from_lines.events.size(), 3u);
  EXPECT_EQ(from_text.events.size(), 3u);
  EXPECT_TRUE(from_lines.closed);
  EXPECT_EQ(std::get<ServerEvent>(from_lines.events[2]).holders->front().token, "a");
  EXPECT_EQ(std::get<Op>(from_lines.events[1]).key, std::get<Op>(from_text.events[1]).key);
  // Without its last newline, and with blank lines, the text is still the same history.
  EXPECT_EQ(parse_history(text.substr(0, text.size() - 1)).events.size(), 3u);
  EXPECT_EQ(parse_error(text + "\n\n" + R"({"i":3,"t":6,"kind":"end"})"), "history line 7: a line after the closing 'end' line");
}

TEST(History, ParsesFromAStreamAndKeepsUnknownFunctions) {
  std::istringstream in(std::string(kMeta) + "\n" +
                        R"({"i":1,"t":3,"kind":"op","type":"invoke","process":2,"f":"read_lock","key":"k","x":1})");
  History history = parse_history(in);
  const auto& op = std::get<Op>(history.events[1]);
  EXPECT_EQ(op.fn, OpFn::other);
  EXPECT_EQ(op.f, "read_lock");
  EXPECT_EQ(history.end_us(), 3);  // no "end" in meta: the last event's t
}

}  // namespace
}  // namespace lockcheck::properties
