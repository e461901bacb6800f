// The fault proxy's source partition: what a cluster split-brain uses to cut a node's outgoing bus links
// (each node dials out from an address of its own) without cutting the other nodes' links through the same
// proxy. And its stream filter: what an external cluster client's fronts rewrite replies with.
#include "link_proxy.hpp"

#include "address_filter.hpp"
#include "cluster_reply_rewrite.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>

namespace lockcheck::redis_backend {
namespace {

sockaddr_in address_of(const char* ip, int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  inet_pton(AF_INET, ip, &address.sin_addr);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  return address;
}

// A connection to the proxy from `source_ip`.
int connect_from(const char* source_ip, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in source = address_of(source_ip, 0);
  sockaddr_in target = address_of("127.0.0.1", port);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&source), sizeof source), 0);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&target), sizeof target), 0);
  return fd;
}

// What arrives on `fd` within `wait_ms` ("" when nothing does).
std::string receive(int fd, int wait_ms) {
  pollfd ready{fd, POLLIN, 0};
  if (poll(&ready, 1, wait_ms) <= 0) return "";
  char buffer[64];
  const ssize_t n = recv(fd, buffer, sizeof buffer, 0);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : "";
}

// A listening socket on a free loopback port (the proxy's target); -1 when none could be made.
int listen_on_loopback(int& port) {
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in any_port = address_of("127.0.0.1", 0);
  socklen_t length = sizeof any_port;
  if (bind(listener, reinterpret_cast<sockaddr*>(&any_port), sizeof any_port) != 0 || listen(listener, 4) != 0 ||
      getsockname(listener, reinterpret_cast<sockaddr*>(&any_port), &length) != 0) {
    close(listener);
    return -1;
  }
  port = ntohs(any_port.sin_port);
  return listener;
}

int accept_within(int listener, int wait_ms) {
  pollfd ready{listener, POLLIN, 0};
  if (poll(&ready, 1, wait_ms) <= 0) return -1;
  return accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
}

TEST(LinkProxy, DropsAPartitionedSourceOnlyUntilHealed) {
  int target_port = 0;
  const int listener = listen_on_loopback(target_port);
  ASSERT_GE(listener, 0);
  LinkProxy proxy(target_port, 0);
  proxy.set_partitioned_sources({"127.0.0.12"});

  const int cut_off = connect_from("127.0.0.12", proxy.port());
  const int cut_off_at_target = accept_within(listener, 2000);
  const int other = connect_from("127.0.0.1", proxy.port());
  const int other_at_target = accept_within(listener, 2000);
  ASSERT_GE(cut_off_at_target, 0);
  ASSERT_GE(other_at_target, 0);

  ASSERT_EQ(send(cut_off, "a", 1, 0), 1);
  ASSERT_EQ(send(other, "b", 1, 0), 1);
  EXPECT_EQ(receive(other_at_target, 2000), "b");
  EXPECT_EQ(receive(cut_off_at_target, 200), "");  // dropped, not delayed: the proxy forwards within 10 ms
  ASSERT_EQ(send(cut_off_at_target, "c", 1, 0), 1);
  EXPECT_EQ(receive(cut_off, 200), "");  // both ways

  proxy.set_partitioned_sources({});
  ASSERT_EQ(send(cut_off, "d", 1, 0), 1);
  EXPECT_EQ(receive(cut_off_at_target, 2000), "d");
  for (int fd : {cut_off, cut_off_at_target, other, other_at_target, listener}) close(fd);
}

TEST(LinkProxy, EachConnectionPassesItsOwnStreamFilter) {
  int target_port = 0;
  const int listener = listen_on_loopback(target_port);
  ASSERT_GE(listener, 0);
  LinkProxy proxy(std::vector<int>{target_port}, 0);
  proxy.set_stream_filter([] { return std::make_unique<AddressFilter>(std::make_shared<ClusterReplies>(PortMap{{7002, 41002}})); });

  const int client = connect_from("127.0.0.1", proxy.port());
  const int server = accept_within(listener, 2000);
  ASSERT_GE(server, 0);
  const std::string get = "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n";
  ASSERT_EQ(send(client, get.data(), get.size(), 0), static_cast<ssize_t>(get.size()));
  EXPECT_EQ(receive(server, 2000), get);  // requests pass unchanged
  const std::string moved = "-MOVED 866 127.0.0.1:7002\r\n";
  ASSERT_EQ(send(server, moved.data(), moved.size(), 0), static_cast<ssize_t>(moved.size()));
  EXPECT_EQ(receive(client, 2000), "-MOVED 866 127.0.0.1:41002\r\n");
  // What the filter cannot read closes the connection rather than pass unread.
  ASSERT_EQ(send(server, "%1\r\n", 5, 0), 5);
  char byte = 0;
  pollfd closed{client, POLLIN, 0};
  ASSERT_EQ(poll(&closed, 1, 2000), 1);
  EXPECT_EQ(recv(client, &byte, 1, 0), 0);
  for (int fd : {client, server, listener}) close(fd);
}

}  // namespace
}  // namespace lockcheck::redis_backend
