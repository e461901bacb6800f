#pragma once
// `watch-cas` — a correct single-key lock without Lua: optimistic check-and-set with WATCH/MULTI/EXEC.
//
// What it does: acquire = SET key <random token> NX PX ttl. Release = WATCH key, GET key; if the key holds our
// token, MULTI, DEL key, EXEC — else UNWATCH. Renew is the same transaction with PEXPIRE key ttl. After a lost
// acquire reply, the next attempt renews by that transaction if the key already holds our token.
//
// Where it comes from: the check-then-act done right with Redis's own optimistic locking, as redis-plus-plus's
// transaction-based lock and the redis.io WATCH documentation do it (research: theory row F3's fix without a
// script).
//
// What it guarantees: the same as the `token` lock on one Redis. EXEC runs the DEL only if nothing touched the
// key since WATCH — another client's SET, its expiry, an eviction or a FLUSH all abort the EXEC (nil), and the
// release then checks again. So a release never deletes a lock another client took, however long the client
// was paused between GET and EXEC (compare get-then-del, which breaks exactly there).
//
// Costs: four or five round trips per release instead of one EVALSHA. WATCH state lives on the connection:
// the port must give the lock a connection that no other caller uses between WATCH and EXEC (a Client per
// thread, as the library's ports do); for that reason the library's watchdog refuses to wrap it (its renewal
// would share the connection). A connection lost mid-transaction drops the WATCH; the next round starts afresh
// (a stray MULTI left open is DISCARDed first).
#include "lockcheck/variants/single_key_lock.hpp"

namespace lockcheck {

class WatchCasLock final : public detail::SingleKeyLock {
 public:
  WatchCasLock(Port& port, Clock& clock, Entropy& entropy, LockOptions options, std::size_t node = 0)
      : SingleKeyLock(port, clock, entropy, options, node) {}

 protected:
  Task<Attempt> attempt(const std::string& key, const std::string& token, bool after_lost_reply) override;
  Task<CallResult> release_call(const std::string& key, const std::string& token, const Request& request) override;
  Task<CallResult> renew_call(const std::string& key, const std::string& token) override;

 private:
  // Runs `write` on key in MULTI/EXEC if the key holds `token` (checked under WATCH). Replies 1 when the write
  // ran and answered a positive integer, 0 when the key does not hold the token. A transaction aborted by a
  // change of the key is checked again, a bounded number of times.
  Task<CallResult> if_holds(const std::string& key, const std::string& token, Command write);
  // One WATCH/GET/MULTI/write/EXEC round; nullopt when EXEC was aborted and the round should be repeated.
  Task<std::optional<CallResult>> if_holds_round(const std::string& key, const std::string& token, const Command& write);
  // Closes whatever transaction a round left open (DISCARD), then returns `result`.
  Task<CallResult> abandoned(CallResult result);
};

}  // namespace lockcheck
