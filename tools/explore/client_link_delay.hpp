#pragma once
// explore --client's draw of a slow link: one client's links delayed for the whole run ([[network.links]] of the
// plan's scenario file; the real backend's proxy on that client's connections holds back every byte by the delay,
// each way). What it reaches that the fault kinds do not: a reply that comes back later than the TTL to one
// client only, while the others see a fast server. A library that hands back a lease whose validity ran out while
// it waited (node-redlock 5.0.0-beta.2, issue #369; tools/judge/TRACK_RECORD.md row 2) lets its holder act while
// another holds; slow_node (a whole node, within the command timeout) cannot show it.
#include <string>
#include <vector>

#include "model/prng.hpp"
#include "model/run_config.hpp"

namespace lockcheck::explore {

// Redraws `config`'s link overrides from `base`'s own: in one run of three, one client (below config's count)
// gets every one of its links delayed by 0.5 to 1.5 TTLs each way (whole milliseconds); in half of those runs the
// clients are cut to two (the slow one and one contender, faults on the others moved to them), and the command timeout
// is raised to twice the round trip at least, so that the delay is a slow reply, not a timeout (as slow_node
// keeps within the timeout). Otherwise `base`'s links and command timeout as they are. Each way, not the round
// trip, is what must pass the TTL less a hold: the client's SET starts its TTL when it lands, and the grant's
// reply reaches the client one delay later, so a holder that trusts it acts after the key expired only when the
// delay plus its hold outlasts the TTL. The run is lengthened (the base's length, plus eight delays) for the slow
// client to connect and act; a delay drawn before, and its length, are dropped first (drop_link_delays), so a
// run redrawn many times is never longer than one draw makes it. Returns whether it drew a delay.
bool draw_client_link_delay(const sim::RunConfig& base, sim::RunConfig& config, sim::Prng& prng);

// The processes `config`'s link overrides delay beyond `base`'s: what explore --client drew (for shrinking and
// for describing a find). Sorted, without repeats.
std::vector<int> delayed_processes(const sim::RunConfig& base, const sim::RunConfig& config);

// "process 1's links delayed 400 ms each way", one phrase per delayed process; empty when none.
std::vector<std::string> describe_link_delays(const sim::RunConfig& base, const sim::RunConfig& config);

// Whether `a` and `b` have the same link overrides, in the same order.
bool same_links(const sim::RunConfig& a, const sim::RunConfig& b);

// `config` without the link delays drawn beyond `base` (its links and command timeout back to base's, its length
// the base's at most, without the faults past that).
void drop_link_delays(const sim::RunConfig& base, sim::RunConfig& config);

}  // namespace lockcheck::explore
