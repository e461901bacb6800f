#include "cluster_reply_rewrite.hpp"

#include <algorithm>

#include "command_words.hpp"
#include "resp_value.hpp"

namespace lockcheck::redis_backend {
namespace {

// "-MOVED 3999 127.0.0.1:7002\r\n": the address is the last word.
std::string rewrite_redirect(std::string_view reply, const PortMap& ports) {
  const std::string_view line = reply.substr(0, reply.size() - 2);
  const std::size_t space = line.rfind(' ');
  return std::string(line.substr(0, space + 1)) + mapped_address(line.substr(space + 1), ports) + "\r\n";
}

void map_integer(RespValue& value, const PortMap& ports) {
  if (value.type == ':') value.text = mapped_port(value.text, ports);
}

// CLUSTER SLOTS: [[first, last, [ip, port, id, ...], [replica ip, port, ...], ...], ...].
void rewrite_slots(RespValue& reply, const PortMap& ports) {
  for (RespValue& range : reply.elements) {
    for (std::size_t i = 2; i < range.elements.size(); ++i) {
      if (range.elements[i].elements.size() >= 2) map_integer(range.elements[i].elements[1], ports);
    }
  }
}

// CLUSTER SHARDS: [["slots", [...], "nodes", [["id", ..., "port", N, "ip", ..., ...], ...]], ...]; RESP2
// gives each map as a flat array of names and values.
void rewrite_shards(RespValue& reply, const PortMap& ports) {
  for (RespValue& shard : reply.elements) {
    for (std::size_t i = 0; i + 1 < shard.elements.size(); i += 2) {
      if (shard.elements[i].text != "nodes") continue;
      for (RespValue& node : shard.elements[i + 1].elements) {
        for (std::size_t k = 0; k + 1 < node.elements.size(); k += 2) {
          if (node.elements[k].text == "port") map_integer(node.elements[k + 1], ports);
        }
      }
    }
  }
}

// CLUSTER NODES lines: "<id> <ip>:<port>@<bus port>[,<hostname>] <flags> ...": only the second word moves.
std::string rewrite_node_lines(std::string_view text, const PortMap& ports) {
  std::string out;
  std::size_t pos = 0;
  // Bounded: each pass consumes one line.
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    end = end == std::string_view::npos ? text.size() : end + 1;
    const std::string_view line = text.substr(pos, end - pos);
    const std::size_t first = line.find(' ');
    const std::size_t at = first == std::string_view::npos ? std::string_view::npos : line.find('@', first);
    const std::size_t colon = at == std::string_view::npos ? std::string_view::npos : line.rfind(':', at);
    if (colon == std::string_view::npos || colon < first) {
      out += line;
    } else {
      out += std::string(line.substr(0, colon + 1)) + mapped_port(line.substr(colon + 1, at - colon - 1), ports) + std::string(line.substr(at));
    }
    pos = end;
  }
  return out;
}

bool node_lines(const RespValue& value) {
  if (value.type != '$' || value.null || value.text.empty()) return false;
  std::size_t pos = 0;
  // Bounded: each pass consumes one line.
  while (pos < value.text.size()) {
    std::size_t end = value.text.find('\n', pos);
    if (end == std::string::npos) end = value.text.size();
    const std::string line = value.text.substr(pos, end - pos);
    const std::size_t first = line.find(' ');
    if (first == std::string::npos || line.find('@', first) > line.find(' ', first + 1)) return false;
    pos = end + 1;
  }
  return true;
}

}  // namespace

bool answers_cluster_query(ClusterQuery query, std::string_view reply) {
  if (query == ClusterQuery::other || reply.empty() || (reply[0] != '*' && reply[0] != '$')) return false;
  const RespValue value = parse_resp(reply);
  const auto all = [&](auto test) { return value.type == '*' && !value.null && std::all_of(value.elements.begin(), value.elements.end(), test); };
  switch (query) {
    case ClusterQuery::slots:
      return all([](const RespValue& range) {
        return range.elements.size() >= 3 && range.elements[0].type == ':' && range.elements[1].type == ':' && range.elements[2].type == '*';
      });
    case ClusterQuery::shards:
      return all([](const RespValue& shard) { return !shard.elements.empty() && shard.elements[0].text == "slots"; });
    case ClusterQuery::nodes:
      return node_lines(value);
    case ClusterQuery::replicas:
      return all(node_lines);
    case ClusterQuery::other:
      break;
  }
  return false;
}

ClusterQuery cluster_query_of(const std::vector<std::string>& words) {
  if (words.size() < 2 || lowercase(words[0]) != "cluster") return ClusterQuery::other;
  const std::string sub = lowercase(words[1]);
  if (sub == "slots") return ClusterQuery::slots;
  if (sub == "shards") return ClusterQuery::shards;
  if (sub == "nodes") return ClusterQuery::nodes;
  if (sub == "replicas" || sub == "slaves") return ClusterQuery::replicas;
  return ClusterQuery::other;
}

std::string rewrite_cluster_reply(ClusterQuery query, std::string_view reply, const PortMap& ports) {
  if (reply.starts_with("-MOVED ") || reply.starts_with("-ASK ")) return rewrite_redirect(reply, ports);
  if (query == ClusterQuery::other || reply.empty() || reply[0] == '-') return std::string(reply);
  RespValue value = parse_resp(reply);
  switch (query) {
    case ClusterQuery::slots:
      rewrite_slots(value, ports);
      break;
    case ClusterQuery::shards:
      rewrite_shards(value, ports);
      break;
    case ClusterQuery::nodes:
      if (value.type == '$' && !value.null) value.text = rewrite_node_lines(value.text, ports);
      break;
    case ClusterQuery::replicas:
      for (RespValue& line : value.elements) line.text = rewrite_node_lines(line.text, ports);
      break;
    case ClusterQuery::other:
      break;
  }
  return serialize_resp(value);
}

}  // namespace lockcheck::redis_backend
