#include "lockcheck/reply.hpp"

namespace lockcheck {

std::string_view Reply::error_code() const {
  if (kind != Kind::error) return {};
  std::string_view view = text;
  return view.substr(0, view.find(' '));
}

void to_resp2(Reply& reply) {
  switch (reply.kind) {
    case Reply::Kind::nil:
    case Reply::Kind::null_array:
    case Reply::Kind::status:
    case Reply::Kind::error:
    case Reply::Kind::integer:
    case Reply::Kind::bulk: return;
    case Reply::Kind::boolean: reply.kind = Reply::Kind::integer; return;
    case Reply::Kind::double_number:
    case Reply::Kind::big_number:
    case Reply::Kind::verbatim: reply.kind = Reply::Kind::bulk; return;
    case Reply::Kind::array:
    case Reply::Kind::map:
    case Reply::Kind::set:
    case Reply::Kind::push:
      reply.kind = Reply::Kind::array;
      // Replies nest a few levels deep at most (a server builds them), so recursion is bounded by the reply.
      for (Reply& element : reply.elements) to_resp2(element);
      return;
  }
}

namespace {

std::string joined(const std::vector<Reply>& elements, std::string_view open, std::string_view close, bool pairs) {
  std::string out(open);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (i > 0) out += pairs && i % 2 == 1 ? ": " : ", ";
    out += to_string(elements[i]);
  }
  return out + std::string(close);
}

}  // namespace

std::string to_string(const Reply& reply) {
  switch (reply.kind) {
    case Reply::Kind::nil: return "(nil)";
    case Reply::Kind::null_array: return "(nil array)";
    case Reply::Kind::status: return reply.text;
    case Reply::Kind::error: return "(error) " + reply.text;
    case Reply::Kind::integer: return "(integer) " + std::to_string(reply.integer);
    case Reply::Kind::bulk: return "\"" + reply.text + "\"";
    case Reply::Kind::array: return joined(reply.elements, "[", "]", false);
    case Reply::Kind::map: return joined(reply.elements, "{", "}", true);
    case Reply::Kind::set: return joined(reply.elements, "(set) [", "]", false);
    case Reply::Kind::push: return joined(reply.elements, "(push) [", "]", false);
    case Reply::Kind::double_number: return "(double) " + reply.text;
    case Reply::Kind::boolean: return reply.integer != 0 ? "(true)" : "(false)";
    case Reply::Kind::big_number: return "(big number) " + reply.text;
    case Reply::Kind::verbatim: return "(verbatim txt) \"" + reply.text + "\"";
  }
  return "(unknown)";
}

}  // namespace lockcheck
