// Property: after any sequence of XADD (explicit and ms-* IDs), XDEL and exact XTRIM (MAXLEN / MINID), XRANGE
// and XREVRANGE with COUNT list what a plain ordered map of the surviving entries lists, and XLEN its size.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <iterator>
#include <map>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

// One RapidCheck seed, which CI replays; RC_PARAMS in the environment (with a seed or without: a random one)
// overrides it. Set before RapidCheck first reads its configuration, in the first property.
const bool kFixedSeed = setenv("RC_PARAMS", "seed=1", /*overwrite=*/0) == 0;

using Model = std::map<std::pair<std::uint64_t, std::uint64_t>, std::string>;

std::string id_text(const std::pair<std::uint64_t, std::uint64_t>& id) {
  return std::to_string(id.first) + "-" + std::to_string(id.second);
}

Reply model_range(const Model& model, bool reverse, std::size_t count) {
  std::vector<Reply> out;
  auto add = [&out](const auto& entry) {
    out.push_back(A({B(id_text(entry.first)), A({B("f"), B(entry.second)})}));
  };
  if (reverse) {
    for (auto it = model.rbegin(); it != model.rend() && out.size() < count; ++it) add(*it);
  } else {
    for (auto it = model.begin(); it != model.end() && out.size() < count; ++it) add(*it);
  }
  return A(std::move(out));
}

RC_GTEST_PROP(StreamModel, RangesMatchAnOrderedMapAfterAnyEdits, ()) {
  MockFixture fixture;
  fixture.node.execute({"config", "set", "stream-node-max-entries", std::to_string(*rc::gen::inRange(1, 6))},
                       fixture.session);
  Model model;
  std::uint64_t last_ms = 0, last_seq = 0;
  const int steps = *rc::gen::inRange(1, 60);
  for (int step = 0; step < steps; ++step) {
    const int kind = *rc::gen::inRange(0, 10);
    if (kind < 6) {
      // XADD: a later ms (explicit seq 0) or the same ms with "ms-*" (next seq).
      const bool same_ms = last_ms != 0 && *rc::gen::arbitrary<bool>();
      const std::uint64_t ms = same_ms ? last_ms : last_ms + static_cast<std::uint64_t>(*rc::gen::inRange(1, 4));
      const std::uint64_t seq = same_ms ? last_seq + 1 : 0;
      const std::string value = std::to_string(step);
      const Reply reply = fixture.run({"xadd", "s", same_ms ? std::to_string(ms) + "-*" : std::to_string(ms), "f", value});
      RC_ASSERT(to_string(reply) == to_string(B(id_text({ms, seq}))));
      model[{ms, seq}] = value;
      last_ms = ms;
      last_seq = seq;
    } else if (kind < 8 && last_ms != 0) {
      const std::uint64_t ms = static_cast<std::uint64_t>(*rc::gen::inRange<std::uint64_t>(1, last_ms + 1));
      const std::uint64_t seq = static_cast<std::uint64_t>(*rc::gen::inRange(0, 3));
      const std::int64_t removed = static_cast<std::int64_t>(model.erase({ms, seq}));
      RC_ASSERT(to_string(fixture.run({"xdel", "s", id_text({ms, seq})})) == to_string(I(removed)));
    } else if (kind == 8) {
      const std::size_t maxlen = static_cast<std::size_t>(*rc::gen::inRange(0, 8));
      std::int64_t removed = 0;
      while (model.size() > maxlen) {
        model.erase(model.begin());
        ++removed;
      }
      RC_ASSERT(to_string(fixture.run({"xtrim", "s", "maxlen", std::to_string(maxlen)})) ==
                to_string(I(removed)));
    } else if (last_ms != 0) {
      const std::uint64_t ms = static_cast<std::uint64_t>(*rc::gen::inRange<std::uint64_t>(0, last_ms + 2));
      std::int64_t removed = 0;
      while (!model.empty() && model.begin()->first < std::make_pair(ms, std::uint64_t{0})) {
        model.erase(model.begin());
        ++removed;
      }
      RC_ASSERT(to_string(fixture.run({"xtrim", "s", "minid", std::to_string(ms)})) == to_string(I(removed)));
    }
  }
  if (last_ms == 0) return;
  const std::size_t count = static_cast<std::size_t>(*rc::gen::inRange(1, 10));
  RC_ASSERT(to_string(fixture.run({"xrange", "s", "-", "+"})) == to_string(model_range(model, false, SIZE_MAX)));
  RC_ASSERT(to_string(fixture.run({"xrevrange", "s", "+", "-", "count", std::to_string(count)})) ==
            to_string(model_range(model, true, count)));
  RC_ASSERT(to_string(fixture.run({"xlen", "s"})) == to_string(I(static_cast<std::int64_t>(model.size()))));
}

}  // namespace
}  // namespace lockcheck::mock::testing
