#include "client_link_delay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace lockcheck::explore {
namespace {

bool same(const sim::LinkOverride& a, const sim::LinkOverride& b) {
  return a.process == b.process && a.node == b.node && a.link.delay_min_us == b.link.delay_min_us &&
         a.link.delay_max_us == b.link.delay_max_us && a.link.request_loss_ppm == b.link.request_loss_ppm &&
         a.link.reply_loss_ppm == b.link.reply_loss_ppm;
}

// The overrides of `config` that `base` does not have.
std::vector<sim::LinkOverride> drawn(const sim::RunConfig& base, const sim::RunConfig& config) {
  std::vector<sim::LinkOverride> out;
  for (const sim::LinkOverride& entry : config.link_overrides) {
    const bool of_base = std::any_of(base.link_overrides.begin(), base.link_overrides.end(),
                                     [&](const sim::LinkOverride& own) { return same(own, entry); });
    if (!of_base) out.push_back(entry);
  }
  return out;
}

}  // namespace

bool draw_client_link_delay(const sim::RunConfig& base, sim::RunConfig& config, sim::Prng& prng) {
  // A kept run is redrawn at each mutation: it sheds its earlier draw's delay and the length that came with it
  // first, or every redraw would add eight delays more (runs of 17 s where 8 s do, in real time).
  drop_link_delays(base, config);
  if (prng.below(3) != 0 || config.clients.empty()) return false;
  // The slow client's SET wins only when it lands on a free key: with several fast clients taking turns the key is
  // seldom free (rl369's race showed in 1 of 5 runs with five clients, 3 of 5 with two). Half the slow runs keep
  // two clients, the slow one and one fast contender; faults on the others move to them.
  if (config.clients.size() > 2 && prng.below(2) == 0) {
    config.clients.resize(2);
    for (sim::FaultSpec& fault : config.faults) {
      if (fault.process >= 2) fault.process %= 2;
    }
  }
  const int process = static_cast<int>(prng.below(config.clients.size()));
  const std::int64_t ttl_us = config.lock.ttl.count() * 1000;
  const std::int64_t one_way_us = std::max<std::int64_t>(1000, ttl_us * prng.between(500, 1500) / 1000 / 1000 * 1000);
  for (int node = 0; node < static_cast<int>(config.nodes.size()); ++node) {
    std::erase_if(config.link_overrides, [&](const sim::LinkOverride& own) { return own.process == process && own.node == node; });
    sim::LinkOverride slow{.process = process, .node = node, .link = config.link};
    slow.link.delay_min_us = slow.link.delay_max_us = one_way_us;
    config.link_overrides.push_back(slow);
  }
  config.command_timeout_us = std::max(config.command_timeout_us, 4 * one_way_us);
  // A client connects through its slow link before its first command (ioredis: connect, its ready check, CLIENT
  // SETNAME; time 0 is its hello, written before), about three round trips: the run gets them on top of the
  // base's length, and one more for a first acquire, or the slow client would barely act before the end.
  config.duration_us = std::max(config.duration_us, base.duration_us) + 8 * one_way_us;
  return true;
}

std::vector<int> delayed_processes(const sim::RunConfig& base, const sim::RunConfig& config) {
  std::vector<int> out;
  for (const sim::LinkOverride& entry : drawn(base, config)) out.push_back(entry.process);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> describe_link_delays(const sim::RunConfig& base, const sim::RunConfig& config) {
  std::map<int, std::int64_t> one_way_us;
  for (const sim::LinkOverride& entry : drawn(base, config)) one_way_us[entry.process] = std::max(one_way_us[entry.process], entry.link.delay_max_us);
  std::vector<std::string> out;
  for (const auto& [process, delay_us] : one_way_us) {
    out.push_back(fmt::format("process {}'s links delayed {} ms each way", process, delay_us / 1000));
  }
  return out;
}

bool same_links(const sim::RunConfig& a, const sim::RunConfig& b) {
  return std::equal(a.link_overrides.begin(), a.link_overrides.end(), b.link_overrides.begin(), b.link_overrides.end(), same);
}

void drop_link_delays(const sim::RunConfig& base, sim::RunConfig& config) {
  config.link_overrides = base.link_overrides;
  config.command_timeout_us = base.command_timeout_us;
  config.duration_us = std::min(config.duration_us, base.duration_us);
  std::erase_if(config.faults, [&](const sim::FaultSpec& fault) { return fault.at_us > config.duration_us; });
}

}  // namespace lockcheck::explore
