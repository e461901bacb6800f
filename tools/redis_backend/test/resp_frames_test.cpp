// Where RESP2 messages end: what the fault proxy cuts a client link into before dropping one.
#include "resp_frames.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace lockcheck::redis_backend {
namespace {

TEST(RespFrames, SimpleTypes) {
  EXPECT_EQ(resp_frame_length("+OK\r\n"), 5u);
  EXPECT_EQ(resp_frame_length("-ERR no\r\n+OK\r\n"), 9u);
  EXPECT_EQ(resp_frame_length(":42\r\n"), 5u);
  EXPECT_EQ(resp_frame_length("$-1\r\n"), 5u);
  EXPECT_EQ(resp_frame_length("*-1\r\n"), 5u);
  EXPECT_EQ(resp_frame_length("*0\r\n"), 4u);
}

TEST(RespFrames, BulkStringsMayHoldLineBreaks) {
  EXPECT_EQ(resp_frame_length("$4\r\na\r\nb\r\n"), 10u);
}

TEST(RespFrames, CommandsAndNestedReplies) {
  const std::string command = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n";
  EXPECT_EQ(resp_frame_length(command + "*1\r\n$4\r\nPING\r\n"), command.size());
  const std::string nested = "*2\r\n*2\r\n:1\r\n$-1\r\n+OK\r\n";
  EXPECT_EQ(resp_frame_length(nested), nested.size());
}

TEST(RespFrames, IncompleteMessagesWait) {
  const std::string command = "*2\r\n$3\r\nGET\r\n$3\r\nkey\r\n";
  for (std::size_t cut = 0; cut < command.size(); ++cut) {
    EXPECT_EQ(resp_frame_length(command.substr(0, cut)), 0u) << "cut at " << cut;
  }
  EXPECT_EQ(resp_frame_length(command), command.size());
}

TEST(RespFrames, RejectsWhatIsNotResp) {
  EXPECT_THROW(resp_frame_length("PING\r\n"), std::runtime_error);
  EXPECT_THROW(resp_frame_length("$x\r\n"), std::runtime_error);
}

}  // namespace
}  // namespace lockcheck::redis_backend
