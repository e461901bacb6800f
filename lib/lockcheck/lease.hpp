#pragma once
// What a successful acquire hands back: the proof of ownership and how long it may be trusted.
#include <cstdint>
#include <string>

#include "lockcheck/clock.hpp"

namespace lockcheck {

struct Lease {
  std::string key;
  std::string token;
  // When the acquiring request was sent, on the monotonic clock: the server's TTL started after this.
  MonoTime sent_at{};
  // sent_at + TTL − drift margin. Past this instant the lock may belong to someone else.
  MonoTime valid_until{};
  // Strictly increasing per lock for fencing variants; 0 when the variant has none.
  std::int64_t fencing_token = 0;
  // Set when a renew or release learned that the key no longer holds our token.
  bool known_lost = false;
  // The clock valid_until is measured on; lost() reads it.
  Clock* clock = nullptr;
  // A shared (read) lease of a read-write lock (LockAlgorithm::acquire_shared); false for exclusive ones.
  bool shared = false;

  Micros remaining() const {
    if (known_lost || clock == nullptr) return Micros::zero();
    const Micros left = valid_until - clock->monotonic_now();
    return left > Micros::zero() ? left : Micros::zero();
  }
  // True once the lease can no longer be trusted: validity ran out, or the server said it is not ours.
  bool lost() const { return remaining() == Micros::zero(); }
};

enum class AcquireStatus {
  acquired,     // lease is valid
  busy,         // someone else held the lock for the whole wait budget
  unreachable,  // no attempt got a reply
  unknown,      // an attempt's reply was lost and the cleanup could not confirm the key is free of our token
};

enum class ReleaseStatus {
  released,   // our key was deleted (or a retried release found it gone after a lost reply)
  not_owned,  // the key no longer held our token: it had expired, so the lease was lost before release
  unknown,    // no reply after every retry; the key expires by its TTL at the latest
};

enum class RenewStatus {
  renewed,  // the TTL was reset; the lease's validity moved forward
  lost,     // the key no longer held our token; the lease is marked lost
  unknown,  // no reply after every retry; the lease keeps its old validity
};

const char* to_string(AcquireStatus status);
const char* to_string(ReleaseStatus status);
const char* to_string(RenewStatus status);

}  // namespace lockcheck
