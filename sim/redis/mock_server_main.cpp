// lockcheck-mock-server [--host 127.0.0.1] [--port 6379]: the embedded mock as a standalone RESP server.
#include <cstdlib>
#include <iostream>
#include <string>

#include "resp_server.hpp"

int main(int argc, char** argv) {
  std::string host = "127.0.0.1";
  int port = 6379;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--host" && i + 1 < argc) {
      host = argv[++i];
    } else if (arg == "--port" && i + 1 < argc) {
      port = std::atoi(argv[++i]);
    } else {
      std::cerr << "usage: lockcheck-mock-server [--host ADDRESS] [--port N]\n";
      return 2;
    }
  }
  return lockcheck::mock::serve_main(host, port);
}
