#pragma once
// Keyspace notifications (notify-keyspace-events): turns the keyspace's KeyEvents into Redis's
// __keyspace@<db>__:<key> / __keyevent@<db>__:<event> messages, with Redis 7.0's event names and classes, and
// forwards every event to the node's observer.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "redis/keyspace/observer.hpp"

namespace lockcheck::mock {

class KeyspaceNotifier : public Observer {
 public:
  using Publish = std::function<void(const std::string& channel, const std::string& message)>;

  explicit KeyspaceNotifier(Publish publish) : publish_(std::move(publish)) {}
  void set_downstream(Observer* observer) { downstream_ = observer; }
  // notify-keyspace-events as CONFIG GET prints it ("" = off).
  void configure(std::string_view flags);

  // The arguments of the client command running now (ZADD ... INCR announces "zincr").
  void set_arguments(const std::vector<std::string>* arguments) { arguments_ = arguments; }

  void on_key_event(const KeyEvent& event) override;
  // An event no KeyEvent carries (MOVE's move_from/move_to), in database db.
  void notify(char event_class, std::string_view event_name, std::string_view key, int db);

 private:

  Publish publish_;
  Observer* downstream_ = nullptr;
  const std::vector<std::string>* arguments_ = nullptr;
  std::string classes_;  // enabled class letters (g $ l s h z x e t d n m)
  bool keyspace_ = false, keyevent_ = false;
};

}  // namespace lockcheck::mock
