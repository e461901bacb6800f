// The protected register's fencing, both ways: writes only (a stale holder's write that lands between the
// new holder's read and write gets through, and the new holder's write then loses it) and reads and writes
// (the new holder's read registers its token, so the stale write is rejected).
#include <gtest/gtest.h>

#include "core/resource.hpp"

namespace lockcheck::sim {
namespace {

struct Fixture {
  explicit Fixture(Fencing fencing) : resource(history, scheduler, fencing) {}
  History history;
  Scheduler scheduler;
  Register resource;
};

// Process 0 holds token 1 and read version 0, then paused past its TTL; process 1 acquired with token 2 and
// read. Process 0's late write lands now, before process 1 writes.
struct Interleaving {
  bool stale_write_accepted = false;
  bool new_write_accepted = false;
  std::int64_t value = 0;
};

Interleaving stale_write_between_read_and_write(Fixture& f) {
  const RegisterRead old_read = f.resource.read(0, 1);
  const RegisterRead new_read = f.resource.read(1, 2);
  Interleaving out;
  out.stale_write_accepted = f.resource.write(0, old_read.value + 1, old_read.version, 1);
  out.new_write_accepted = f.resource.write(1, new_read.value + 1, new_read.version, 2);
  out.value = f.resource.value();
  return out;
}

TEST(Register, WritesOnlyFencingLosesTheUpdateOfAStaleWriteBetweenReadAndWrite) {
  Fixture f(Fencing::writes);
  const Interleaving run = stale_write_between_read_and_write(f);
  EXPECT_TRUE(run.stale_write_accepted) << "no newer token had reached the register yet";
  EXPECT_TRUE(run.new_write_accepted);
  EXPECT_EQ(run.value, 1) << "two increments accepted, one lost";
  const auto& lines = f.history.lines();
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[3].find(R"("fencing":2,"accepted":true,"stale":true)"), std::string::npos) << lines[3];
  EXPECT_EQ(lines[0].find("accepted"), std::string::npos) << "read lines keep their shape without read fencing";
}

TEST(Register, ReadsAndWritesFencingRejectsTheStaleWrite) {
  Fixture f(Fencing::reads_and_writes);
  const Interleaving run = stale_write_between_read_and_write(f);
  EXPECT_FALSE(run.stale_write_accepted) << "the new holder's read registered token 2";
  EXPECT_TRUE(run.new_write_accepted);
  EXPECT_EQ(run.value, 1);
  const auto& lines = f.history.lines();
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[1].find(R"("f":"read","value":0,"version":0,"fencing":2,"accepted":true)"), std::string::npos)
      << lines[1];
  EXPECT_NE(lines[2].find(R"("fencing":1,"accepted":false,"stale":false)"), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find(R"("fencing":2,"accepted":true,"stale":false)"), std::string::npos) << lines[3];
}

TEST(Register, ReadsAndWritesFencingRejectsAStaleRead) {
  Fixture f(Fencing::reads_and_writes);
  f.resource.write(1, 7, 0, 5);
  const RegisterRead stale = f.resource.read(0, 4);
  EXPECT_FALSE(stale.accepted);
  EXPECT_EQ(stale.value, 0) << "a rejected read returns no value";
  EXPECT_NE(f.history.lines().back().find(R"("value":0,"version":1,"fencing":4,"accepted":false)"), std::string::npos)
      << f.history.lines().back();
  const RegisterRead same = f.resource.read(1, 5);
  EXPECT_TRUE(same.accepted) << "the token that wrote may read again";
  EXPECT_EQ(same.value, 7);
  EXPECT_EQ(f.resource.highest_fencing(), 5);
}

TEST(Register, WritesOnlyFencingNeitherChecksNorRegistersReads) {
  Fixture f(Fencing::writes);
  f.resource.write(1, 7, 0, 5);
  EXPECT_TRUE(f.resource.read(0, 4).accepted);
  f.resource.read(2, 9);
  EXPECT_EQ(f.resource.highest_fencing(), 5);
}

TEST(Register, WithoutFencingEveryWriteIsAccepted) {
  Fixture f(Fencing::off);
  EXPECT_TRUE(f.resource.write(0, 1, 0, 9));
  EXPECT_TRUE(f.resource.write(1, 2, 0, 3));
  EXPECT_NE(f.history.lines().back().find(R"("accepted":true,"stale":true)"), std::string::npos);
}

}  // namespace
}  // namespace lockcheck::sim
