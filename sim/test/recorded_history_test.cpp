// A simulated run's history read as recorded (properties::parse_history of a sim::History) is the history
// its text says: the same events, for every variant of the catalogue under faults, and for values only the
// JSON parser reads (escapes, UTF-8, arrays), which go to it as text.
#include <gtest/gtest.h>

#include "core/simulate.hpp"
#include "lockcheck/variants/registry.hpp"
#include "model/variant_config.hpp"
#include "properties/history.hpp"

namespace lockcheck::sim {
namespace {

std::vector<FaultSpec> some_faults() {
  std::vector<FaultSpec> faults;
  const auto at = [&](std::int64_t at_ms, FaultKind kind) -> FaultSpec& {
    FaultSpec& fault = faults.emplace_back();
    fault.at_us = at_ms * 1000;
    fault.kind = kind;
    return fault;
  };
  FaultSpec& loss = at(300, FaultKind::loss);
  loss.request_loss_ppm = 200000;
  loss.reply_loss_ppm = 200000;
  at(700, FaultKind::loss);
  FaultSpec& pause = at(900, FaultKind::pause);
  pause.process = 0;
  pause.duration_us = 1500000;
  FaultSpec& jump = at(1200, FaultKind::node_clock_jump);
  jump.node = 0;
  jump.delta_us = 2000000;
  return faults;
}

TEST(RecordedHistory, ReadAsRecordedItIsWhatItsTextSaysForEveryVariant) {
  int compared = 0;
  for (const std::string& variant : variant_ids()) {
    if (variant_has(variant, &VariantRow::user_scripts)) continue;  // nothing to run without the user's files
    RunConfig config = variant_base_config(variant);
    config.duration_us = 3000000;
    config.faults = some_faults();
    const RunResult run = simulate(config, 7);
    ASSERT_GT(run.history.size(), 10u) << variant;
    EXPECT_EQ(properties::parse_history(run.history), properties::parse_history_lines(run.history.lines())) << variant;
    ++compared;
  }
  EXPECT_GE(compared, 20);
}

TEST(RecordedHistory, ValuesOnlyTheJsonParserReadsAreReadFromTheText) {
  History history;
  history.record(0, "meta", Json{{"schema", 1}, {"ttl_ms", 100}, {"lock_keys", Json::array({{{"key", "k:read"}, {"lock", "k"}, {"mode", "read"}}})}});
  HistoryLine op(10, "op");
  op.add("type", "ok").add("process", 0).add("f", "acquire").add("key", "k").add("token", "a\"b\\c");
  history.record(std::move(op));
  HistoryLine utf8(20, "op");
  utf8.add("type", "invoke").add("process", 1).add("f", "release").add("key", "k").add("detail", "caf\xc3\xa9\n");
  history.record(std::move(utf8));
  HistoryLine server(30, "server");
  server.add("node", 0).add("event", "created").add("key", "k").add("node_time_ms", 5).add_named("big", std::uint64_t{1} << 63);
  history.record(std::move(server));
  const properties::History read = properties::parse_history(history);
  EXPECT_EQ(read, properties::parse_history_lines(history.lines()));
  ASSERT_EQ(read.events.size(), 4u);
  EXPECT_EQ(std::get<properties::Op>(read.events[1]).token, "a\"b\\c");
  EXPECT_EQ(std::get<properties::Op>(read.events[2]).detail, "caf\xc3\xa9\n");
  EXPECT_EQ(read.meta.lock_keys.size(), 1u);
}

// Each byte, at each place of a value long enough for the eight-byte check and its tail: read as recorded, the
// value is what its text says, or refused as its text is (a byte beyond ASCII alone is invalid UTF-8).
TEST(RecordedHistory, EveryByteAnywhereInAValueReadsAsItsText) {
  const auto outcome = [](const auto& read) -> std::string {
    try {
      return std::get<properties::Op>(read().events.at(1)).detail;
    } catch (const std::exception&) {
      return "refused";
    }
  };
  int refused = 0;
  for (int byte = 0; byte < 256; ++byte) {
    for (std::size_t place = 0; place < 19; ++place) {
      std::string value(19, 'v');
      value[place] = static_cast<char>(byte);
      History history;
      history.record(0, "meta", Json{{"schema", 1}, {"ttl_ms", 100}});
      HistoryLine op(10, "op");
      op.add("type", "ok").add("process", 0).add("f", "release");
      try {
        op.add("detail", value);
        history.record(std::move(op));
      } catch (const Json::exception&) {
        ++refused;  // refused when recorded, as its text would be
        continue;
      }
      const std::string recorded = outcome([&] { return properties::parse_history(history); });
      const std::string text = outcome([&] { return properties::parse_history_lines(history.lines()); });
      ASSERT_EQ(recorded, text) << "byte " << byte << " at " << place;
      if (recorded != "refused") {
        ASSERT_EQ(recorded, value) << "byte " << byte << " at " << place;
      }
    }
  }
  EXPECT_EQ(refused, 128 * 19);  // every byte beyond ASCII, alone, at every place
}

// A line far longer than a typical one (past the room HistoryLine reserves) is recorded and read whole.
TEST(RecordedHistory, ALongLineIsRecordedWhole) {
  History history;
  history.record(0, "meta", Json{{"schema", 1}, {"ttl_ms", 100}});
  HistoryLine op(10, "op");
  op.add("type", "ok").add("process", 0).add("f", "acquire").add("key", "k").add("token", std::string(150, 't'));
  op.add("detail", std::string(300, 'd')).add("attempts", 2);
  history.record(std::move(op));
  const properties::History read = properties::parse_history(history);
  EXPECT_EQ(read, properties::parse_history_lines(history.lines()));
  const auto& acquired = std::get<properties::Op>(read.events.at(1));
  EXPECT_EQ(acquired.token, std::string(150, 't'));
  EXPECT_EQ(acquired.detail, std::string(300, 'd'));
  EXPECT_EQ(acquired.attempts, 2);
}

// An error in a recorded line names the line as parsing its text does.
TEST(RecordedHistory, AnErrorNamesTheLineAsTheTextsDoes) {
  History history;
  history.record(0, "meta", Json{{"schema", 1}, {"ttl_ms", 100}});
  HistoryLine op(10, "op");
  op.add("type", "ok").add("process", "zero").add("f", "acquire");
  history.record(std::move(op));
  std::string from_recorded, from_text;
  try {
    properties::parse_history(history);
  } catch (const properties::ParseError& error) {
    from_recorded = error.what();
  }
  try {
    properties::parse_history_lines(history.lines());
  } catch (const properties::ParseError& error) {
    from_text = error.what();
  }
  EXPECT_NE(from_text, "");
  EXPECT_EQ(from_recorded, from_text);
}

// Every name of the list is found by its number at run time (the Json path and the text scanner number names so),
// the compile-time number is the same, and a name the list lacks has none.
TEST(HistoryFields, EveryNameIsFoundByItsNumber) {
  for (std::size_t id = 0; id < kFieldNameCount; ++id) {
    EXPECT_EQ(field_id(kFieldNames[id]), id) << kFieldNames[id];
    EXPECT_EQ(field_id_of(kFieldNames[id]), id) << kFieldNames[id];
  }
  static_assert(FieldName("valid_until_local").id == field_id_of("valid_until_local"));
  for (const std::string_view absent : {"", "valid_until_", "valid_unti", "Token", "big", "replication_lag_max_u"}) {
    EXPECT_EQ(field_id(absent), kNoFieldId) << absent;
  }
}

}  // namespace
}  // namespace lockcheck::sim
