// lockcheck-mock-server [--bind 127.0.0.1] [--port 6379] [--requirepass P]: the embedded mock as a standalone
// RESP server.
#include <cstdlib>
#include <iostream>
#include <string>

#include "redis/wire/resp_server.hpp"

int main(int argc, char** argv) {
  lockcheck::mock::ServeOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--host" || arg == "--bind") && i + 1 < argc) {
      options.host = argv[++i];
    } else if (arg == "--port" && i + 1 < argc) {
      options.port = std::atoi(argv[++i]);
    } else if (arg == "--requirepass" && i + 1 < argc) {
      options.requirepass = argv[++i];
    } else {
      std::cerr << "usage: lockcheck-mock-server [--bind ADDRESS] [--port N] [--requirepass PASSWORD]\n";
      return 2;
    }
  }
  return lockcheck::mock::serve_main(options);
}
