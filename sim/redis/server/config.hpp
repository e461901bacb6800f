#pragma once
// CONFIG GET/SET parameters a lock or its client reads or sets, with Redis 7.0.15's defaults, validation
// and error texts. Values are kept as CONFIG GET prints them; the Node reads the ones it acts on.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lockcheck::mock {

class ServerConfig {
 public:
  ServerConfig();

  // (name, value) of every parameter (or alias) matching one of the glob patterns, each once.
  std::vector<std::pair<std::string, std::string>> get(const std::vector<std::string>& patterns) const;
  // Sets name/value pairs all or nothing; the error reply text when one is refused.
  std::optional<std::string> set(const std::vector<std::pair<std::string, std::string>>& changes);
  const std::string& value(std::string_view name) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;  // canonical name -> value
};

// notify-keyspace-events as flag letters -> Redis's canonical string (what CONFIG GET prints), or nullopt
// for an invalid character.
std::optional<std::string> canonical_keyspace_events(std::string_view flags);

}  // namespace lockcheck::mock
