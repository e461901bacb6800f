#include "lockcheck/reply.hpp"

namespace lockcheck {

std::string_view Reply::error_code() const {
  if (kind != Kind::error) return {};
  std::string_view view = text;
  return view.substr(0, view.find(' '));
}

std::string to_string(const Reply& reply) {
  switch (reply.kind) {
    case Reply::Kind::nil: return "(nil)";
    case Reply::Kind::status: return reply.text;
    case Reply::Kind::error: return "(error) " + reply.text;
    case Reply::Kind::integer: return "(integer) " + std::to_string(reply.integer);
    case Reply::Kind::bulk: return "\"" + reply.text + "\"";
    case Reply::Kind::array: {
      std::string out = "[";
      for (std::size_t i = 0; i < reply.elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += to_string(reply.elements[i]);
      }
      return out + "]";
    }
  }
  return "(unknown)";
}

}  // namespace lockcheck
