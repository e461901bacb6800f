// NodeClocks reads a node's clock between its lines: anchored by each line, stepped by a jump, its rate set by a
// drift; a node without lines as the clocks started.
#include <gtest/gtest.h>

#include "history_builder.hpp"
#include "properties/node_clocks.hpp"

namespace lockcheck::properties {
namespace {

using testing::HistoryBuilder;

TEST(NodeClocks, ALineAnchorsAJumpStepsADriftSetsTheRate) {
  HistoryBuilder h;
  h.fault(0, {{"fault", "node_clock_jump"}, {"node", 2}, {"delta_us", -300'000}});  // before any line
  h.server(1'000'000, 0, "created", 1, "a", 5'000, 6'000);
  h.fault(1'100'000, {{"fault", "node_clock_jump"}, {"node", 0}, {"delta_us", -500'000}});
  h.fault(1'200'000, {{"fault", "node_clock_drift"}, {"node", 0}, {"drift_ppm", 100'000}});
  h.fault(1'250'000, {{"fault", "node_clock_jump"}, {"node", 1}, {"delta_us", 250'000}});
  NodeClocks clocks;
  EXPECT_FALSE(clocks.read_ms(0, 1'000'000));
  const History history = h.parse();
  for (const Event& event : history.events) {
    if (const auto* server = std::get_if<ServerEvent>(&event)) clocks.on(*server);
    if (const auto* fault = std::get_if<FaultEvent>(&event)) clocks.on(*fault);
  }
  EXPECT_DOUBLE_EQ(*clocks.read_ms(0, 1'200'000), 5'000 + 200 - 500);
  EXPECT_DOUBLE_EQ(*clocks.read_ms(0, 1'300'000), 4'700 + 110);  // 100 ms at 10% fast
  // Node 1 has no line (a replica): it reads as node 0's first line says the clocks started, moved by its own jump.
  EXPECT_DOUBLE_EQ(*clocks.read_ms(1, 1'300'000), 4'000 + 1'300 + 250);
  EXPECT_DOUBLE_EQ(*clocks.read_ms(2, 1'300'000), 4'000 + 1'300 - 300) << "a jump before any line still counts";
  // Node 0 stepped back 500 ms at 1.1 s: from 1.0 s to 1.3 s it read least just after the jump.
  EXPECT_DOUBLE_EQ(*clocks.least_read_ms(0, 1'000'000, 1'300'000), 5'000 + 100 - 500);
  EXPECT_DOUBLE_EQ(*clocks.least_read_ms(0, 1'150'000, 1'300'000), 5'000 + 150 - 500);
}

}  // namespace
}  // namespace lockcheck::properties
