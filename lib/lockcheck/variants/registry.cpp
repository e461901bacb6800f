#include "lockcheck/variants/registry.hpp"
#include "lockcheck/variants/capabilities.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "lockcheck/errors.hpp"
#include "lockcheck/broken/exists_then_set.hpp"
#include "lockcheck/broken/appid_thread_lock.hpp"
#include "lockcheck/broken/client_reentrant_lock.hpp"
#include "lockcheck/variants/fenced_lock.hpp"
#include "lockcheck/broken/get_then_del.hpp"
#include "lockcheck/variants/reentrant_hash_lock.hpp"
#include "lockcheck/broken/set_nx_ex_del.hpp"
#include "lockcheck/broken/setnx_then_expire.hpp"
#include "lockcheck/broken/thread_id_lock.hpp"
#include "lockcheck/variants/redlock.hpp"
#include "lockcheck/variants/redisson_like_lock.hpp"
#include "lockcheck/variants/rw_owned_lock.hpp"
#include "lockcheck/broken/rw_two_keys_lock.hpp"
#include "lockcheck/broken/rw_hash_timestamps_lock.hpp"
#include "lockcheck/variants/script_lock.hpp"
#include "lockcheck/variants/token_lock.hpp"
#include "lockcheck/broken/watchdog_unchecked.hpp"
#include "lockcheck/variants/token_wait_lock.hpp"
#include "lockcheck/variants/watch_cas_lock.hpp"

namespace lockcheck {

const std::vector<std::string>& variant_ids() {
  static const std::vector<std::string> ids = {
      "exists-then-set", "setnx-then-expire", "set-nx-ex-del", "token", "thread-id", "appid-thread",
      "reentrant-hash", "reentrant-maxttl", "client-reentrant", "watchdog-unchecked", "watchdog", "rw-two-keys",
      "rw-hash-timestamps", "redlock", "redisson-like", "fenced", "token-wait", "rw-owned", "watch-cas", "get-then-del", "script"};
  return ids;
}

std::string watchdog_refusal(const std::string& id, bool has_renew_script) {
  if (renews_in_background(id)) return fmt::format("variant \"{}\" already renews in the background", id);
  if (id == "watch-cas") {
    // Its WATCH/MULTI/EXEC state lives on the connection; a background renewal on the same connection would
    // run inside the release's transaction (or break its WATCH) instead of beside it.
    return "variant \"watch-cas\" runs its transactions on the lock's connection, which a background renewal "
           "would interleave with";
  }
  if (id == "script" && !has_renew_script) {
    return "variant \"script\" can renew only with a renew.lua ([scripts] renew, or a third file to --scripts)";
  }
  return "";
}

namespace {

std::unique_ptr<LockAlgorithm> make_unwrapped(const std::string& id, Port& port, Clock& clock, Entropy& entropy,
                                              const LockOptions& options, const VariantParams& params);

}  // namespace

std::unique_ptr<LockAlgorithm> make_lock(const std::string& id, Port& port, Clock& clock, Entropy& entropy,
                                         const LockOptions& options, const VariantParams& params) {
  if (!params.wrap_in_watchdog) return make_unwrapped(id, port, clock, entropy, options, params);
  if (const std::string refused = watchdog_refusal(id, !params.scripts.renew.empty()); !refused.empty()) {
    throw InvalidArgument(fmt::format("a watchdog cannot wrap this variant: {}", refused));
  }
  if (params.spawner == nullptr) throw InvalidArgument(fmt::format("a watchdog over '{}' needs a Spawner", id));
  auto inner = make_unwrapped(id, port, clock, entropy, options, params);
  return std::make_unique<WatchdogLock>(std::move(inner), clock, *params.spawner, options.ttl, params.watchdog);
}

namespace {

std::unique_ptr<LockAlgorithm> make_unwrapped(const std::string& id, Port& port, Clock& clock, Entropy& entropy,
                                              const LockOptions& options, const VariantParams& params) {
  auto spawner = [&]() -> Spawner& {
    if (params.spawner == nullptr) throw InvalidArgument(fmt::format("lock variant '{}' renews in the background and needs a Spawner", id));
    return *params.spawner;
  };
  if (id == "watchdog") {
    return std::make_unique<WatchdogLock>(std::make_unique<TokenLock>(port, clock, entropy, options), clock, spawner(),
                                          options.ttl, params.watchdog);
  }
  if (id == "redisson-like") {
    return std::make_unique<RedissonLikeLock>(port, clock, entropy, options, spawner(), params.watchdog);
  }
  if (id == "client-reentrant") {
    return std::make_unique<broken::ClientReentrantLock>(port, clock, entropy, options, spawner(), params.watchdog);
  }
  if (id == "token") return std::make_unique<TokenLock>(port, clock, entropy, options);
  if (id == "redlock") return std::make_unique<Redlock>(port, clock, entropy, options);
  if (id == "script") return std::make_unique<ScriptLock>(port, clock, entropy, options, params.scripts);
  if (id == "fenced") return std::make_unique<FencedLock>(port, clock, entropy, options);
  if (id == "reentrant-hash") return std::make_unique<ReentrantHashLock>(port, clock, entropy, options);
  if (id == "reentrant-maxttl") return std::make_unique<ReentrantMaxTtlLock>(port, clock, entropy, options);
  if (id == "rw-owned") return std::make_unique<RwOwnedLock>(port, clock, entropy, options);
  if (id == "watch-cas") return std::make_unique<WatchCasLock>(port, clock, entropy, options);
  if (id == "token-wait") return std::make_unique<TokenWaitLock>(port, clock, entropy, options, params.token_wait);
  // Deliberately broken variants, for study (namespace lockcheck::broken).
  if (id == "exists-then-set") return std::make_unique<broken::ExistsThenSetLock>(port, clock, entropy, options);
  if (id == "setnx-then-expire") return std::make_unique<broken::SetnxThenExpireLock>(port, clock, entropy, options);
  if (id == "set-nx-ex-del") return std::make_unique<broken::SetNxExDelLock>(port, clock, entropy, options);
  if (id == "get-then-del") return std::make_unique<broken::GetThenDelLock>(port, clock, entropy, options);
  if (id == "thread-id") return std::make_unique<broken::ThreadIdLock>(port, clock, entropy, options);
  if (id == "appid-thread") return std::make_unique<broken::AppIdThreadLock>(port, clock, entropy, options);
  if (id == "watchdog-unchecked") {
    return std::make_unique<broken::WatchdogUncheckedLock>(port, clock, entropy, options, spawner(), params.watchdog);
  }
  if (id == "rw-two-keys") return std::make_unique<broken::RwTwoKeysLock>(port, clock, entropy, options);
  if (id == "rw-hash-timestamps") return std::make_unique<broken::RwHashTimestampsLock>(port, clock, entropy, options);
  throw InvalidArgument(fmt::format("unknown lock variant '{}'; known: {}", id, fmt::join(variant_ids(), ", ")));
}

}  // namespace

LockShape lock_shape(const std::string& id, const std::string& key, std::size_t masters) {
  const auto& ids = variant_ids();
  if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
    throw InvalidArgument(fmt::format("unknown lock variant '{}'; known: {}", id, fmt::join(ids, ", ")));
  }
  LockShape shape;
  if (id == "redlock") shape.quorum = Redlock::quorum_of(masters);
  if (id == "rw-two-keys") {
    shape.derived_keys = {{broken::RwTwoKeysLock::read_key(key), true}, {broken::RwTwoKeysLock::write_key(key), false}};
  }
  if (id == "fenced") shape.state_keys = {FencedLock::fence_key(key)};
  return shape;
}

}  // namespace lockcheck
