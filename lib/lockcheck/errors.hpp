#pragma once
// Typed errors. The library never swallows an error and never throws from a destructor.
#include <stdexcept>
#include <string>

namespace lockcheck {

// Base of every error lockcheck throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A bad argument: empty key, TTL out of range, bad host or port.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// The server could not be reached, or stopped answering.
class ConnectionError : public Error {
 public:
  using Error::Error;
};

// The server answered with an error reply (WRONGTYPE, NOPERM, OOM, READONLY, ...).
class RedisError : public Error {
 public:
  using Error::Error;
};

// lock() waited its whole bound without getting the lock.
class LockTimeout : public Error {
 public:
  using Error::Error;
};

// An acquire whose outcome could not be learned: the key may hold our token until its TTL runs out.
// Nothing else can take the lock meanwhile; we do not hold it knowingly either.
class UnknownOutcome : public Error {
 public:
  using Error::Error;
};

}  // namespace lockcheck
