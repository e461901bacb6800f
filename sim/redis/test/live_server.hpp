#pragma once
// A live mock server on a free loopback port, served from a thread for a test's lifetime, and a raw-bytes
// exchange with it.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "redis/wire/real_clock.hpp"
#include "redis/wire/resp_server.hpp"

namespace lockcheck::mock::testing {

// A live server on a free port, served from a thread for the test's lifetime.
class LiveServer : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<RespServer>(node_, options());
    thread_ = std::thread([this] {
      server_->run(stop_);
      ran_out_.set_value();
    });
  }
  void TearDown() override {
    stop_ = true;
    thread_.join();
  }

  // Sends raw bytes on a fresh connection and returns everything received until the server closes it
  // or 2 s pass.
  std::string raw_exchange(const std::string& bytes) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(server_->port()));
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    timeval timeout{2, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    (void)!send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    std::string received;
    char chunk[4096];
    for (int i = 0; i < 1000; ++i) {
      ssize_t n = recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) break;
      received.append(chunk, static_cast<std::size_t>(n));
    }
    close(fd);
    return received;
  }

  virtual ServeOptions options() const { return ServeOptions{.host = "127.0.0.1", .port = 0}; }

  Node node_{NodeOptions{.clock = real_unix_time_ms}};
  std::unique_ptr<RespServer> server_;
  std::atomic<bool> stop_{false};
  std::promise<void> ran_out_;
  std::future<void> stopped_ = ran_out_.get_future();  // ready once run() returned (stop_ or SHUTDOWN)
  std::thread thread_;
};

}  // namespace lockcheck::mock::testing
