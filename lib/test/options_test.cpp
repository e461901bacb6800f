// Bad inputs are rejected with messages that say what is wrong, before any network traffic.
#include <gtest/gtest.h>

#include "lockcheck/errors.hpp"
#include "lockcheck/hiredis_port.hpp"
#include "lockcheck/lock_options.hpp"

namespace lockcheck {
namespace {

TEST(LockOptions, DefaultsAreValid) { EXPECT_NO_THROW(validate_lock_options(LockOptions{})); }

TEST(LockOptions, RejectsTtlOutOfRange) {
  EXPECT_THROW(validate_lock_options(LockOptions{.ttl = Millis(0)}), InvalidArgument);
  EXPECT_THROW(validate_lock_options(LockOptions{.ttl = Millis(-5)}), InvalidArgument);
  EXPECT_THROW(validate_lock_options(LockOptions{.ttl = Millis(1LL << 40)}), InvalidArgument);
}

TEST(LockOptions, RejectsBadRetryPolicy) {
  LockOptions options;
  options.retry.delay_min = Micros(0);
  EXPECT_THROW(validate_lock_options(options), InvalidArgument);
  options = {};
  options.retry.delay_max = Micros(1);
  EXPECT_THROW(validate_lock_options(options), InvalidArgument);
}

TEST(LockOptions, DriftMarginIsOnePercentPlusTwoMilliseconds) {
  EXPECT_EQ(drift_margin(LockOptions{.ttl = Millis(10000)}), Micros(102000));
}

TEST(LockKey, RejectsEmptyAndHugeKeys) {
  EXPECT_THROW(validate_lock_key(""), InvalidArgument);
  EXPECT_THROW(validate_lock_key(std::string(kMaxKeyBytes + 1, 'k')), InvalidArgument);
  EXPECT_NO_THROW(validate_lock_key("orders:42"));
}

TEST(ConnectionOptions, RejectsBadHostPortAndTimeouts) {
  EXPECT_THROW(validate_connection_options({.host = ""}), InvalidArgument);
  EXPECT_THROW(validate_connection_options({.port = 0}), InvalidArgument);
  EXPECT_THROW(validate_connection_options({.port = 70000}), InvalidArgument);
  EXPECT_THROW(validate_connection_options({.command_timeout = Millis(0)}), InvalidArgument);
  EXPECT_THROW(validate_connection_options({.username = "u"}), InvalidArgument);
  EXPECT_THROW(validate_connection_options({.client_name = "orders service"}), InvalidArgument) << "a space";
  EXPECT_THROW(validate_connection_options({.client_name = "orders\n"}), InvalidArgument);
  EXPECT_NO_THROW(validate_connection_options({.client_name = "orders-service:7"}));
  try {
    validate_connection_options({.port = 70000});
  } catch (const InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("70000"), std::string::npos);
  }
}

}  // namespace
}  // namespace lockcheck
