#pragma once
// HistoryLine's add() onto a Json object: a template that writes a line's fields once serves both outputs, a
// HistoryLine (the simulator, on its hot path) and a Json object (the redis backend's workers), so the two
// backends write the same lines.
#include <utility>

#include "model/history.hpp"

namespace lockcheck::sim {

struct JsonFields {
  Json json = Json::object();
  template <typename Value>
  JsonFields& add(const char* name, Value&& value) {
    json[name] = std::forward<Value>(value);
    return *this;
  }
};

}  // namespace lockcheck::sim
