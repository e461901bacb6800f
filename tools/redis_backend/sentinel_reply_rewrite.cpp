#include "sentinel_reply_rewrite.hpp"

#include <algorithm>
#include <cctype>

#include "command_words.hpp"
#include "resp_value.hpp"

namespace lockcheck::redis_backend {
namespace {

bool digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// "127.0.0.1": what precedes a port in an event's words.
bool ipv4(std::string_view text) {
  return std::count(text.begin(), text.end(), '.') == 3 &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return c == '.' || std::isdigit(c) != 0; });
}

bool is_array(const RespValue& value) { return value.type == '*' && !value.null; }

// One instance's flat name-value list (SENTINEL MASTER, one element of MASTERS / REPLICAS / SENTINELS).
bool instance_shaped(const RespValue& value) {
  return is_array(value) && value.elements.size() % 2 == 0 && !value.elements.empty() && value.elements[0].text == "name";
}

void rewrite_instance(RespValue& instance, const PortMap& ports) {
  for (std::size_t i = 0; i + 1 < instance.elements.size(); i += 2) {
    const std::string& field = instance.elements[i].text;
    std::string& value = instance.elements[i + 1].text;
    if (field == "port" || field == "master-port") value = mapped_port(value, ports);
    if (field == "name") value = mapped_address(value, ports);  // a replica's name is "ip:port"
  }
}

// "a=1,port=6379,address=127.0.0.1:6379": the ports of INFO's slaveN and masterN lines.
std::string rewrite_info_pairs(std::string_view value, const PortMap& ports) {
  std::string out;
  std::size_t pos = 0;
  // Bounded: each pass consumes one pair.
  while (pos <= value.size()) {
    std::size_t end = value.find(',', pos);
    if (end == std::string_view::npos) end = value.size();
    const std::string_view pair = value.substr(pos, end - pos);
    const std::size_t equals = pair.find('=');
    const std::string_view name = pair.substr(0, equals);
    if (equals != std::string_view::npos && name == "port") {
      out += std::string(pair.substr(0, equals + 1)) + mapped_port(pair.substr(equals + 1), ports);
    } else if (equals != std::string_view::npos && name == "address") {
      out += std::string(pair.substr(0, equals + 1)) + mapped_address(pair.substr(equals + 1), ports);
    } else {
      out += pair;
    }
    if (end < value.size()) out += ',';
    pos = end + 1;
  }
  return out;
}

// INFO's text: "field:value" lines ending in \r\n.
std::string rewrite_info_text(std::string_view text, const PortMap& ports) {
  std::string out;
  std::size_t pos = 0;
  // Bounded: each pass consumes one line.
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    end = end == std::string_view::npos ? text.size() : end + 1;
    std::size_t stop = end;
    while (stop > pos && (text[stop - 1] == '\n' || text[stop - 1] == '\r')) --stop;
    const std::string_view line = text.substr(pos, stop - pos);
    const std::string_view ending = text.substr(stop, end - stop);
    const std::size_t colon = line.find(':');
    const std::string_view field = line.substr(0, colon);
    if (colon == std::string_view::npos || line.starts_with("#")) {
      out += line;
    } else if (field == "master_port" || field == "tcp_port") {
      out += std::string(line.substr(0, colon + 1)) + mapped_port(line.substr(colon + 1), ports);
    } else if (line.find('=', colon) != std::string_view::npos) {
      out += std::string(line.substr(0, colon + 1)) + rewrite_info_pairs(line.substr(colon + 1), ports);
    } else {
      out += line;
    }
    out += ending;
    pos = end;
  }
  return out;
}

void rewrite_info_texts(RespValue& value, const PortMap& ports) {
  if (value.type == '$' && !value.null) value.text = rewrite_info_text(value.text, ports);
  for (RespValue& element : value.elements) rewrite_info_texts(element, ports);
}

// ROLE: ["master", offset, [[ip, port, offset], ...]], ["slave", ip, port, state, offset] or ["sentinel", [names]].
void rewrite_role(RespValue& role, const PortMap& ports) {
  if (role.elements.empty()) return;
  if (role.elements[0].text == "master" && role.elements.size() >= 3) {
    for (RespValue& replica : role.elements[2].elements) {
      if (replica.elements.size() >= 2) replica.elements[1].text = mapped_port(replica.elements[1].text, ports);
    }
  } else if (role.elements[0].text == "slave" && role.elements.size() >= 3) {
    role.elements[2].text = mapped_port(role.elements[2].text, ports);
  }
}

// An event's words: "slave 127.0.0.1:6380 127.0.0.1 6380 @ mymaster 127.0.0.1 6379"; a hello's fields:
// "127.0.0.1,26379,<runid>,<epoch>,mymaster,127.0.0.1,6379,<epoch>". A port follows an IPv4 address.
std::string rewrite_event_words(std::string_view text, const PortMap& ports) {
  std::string out;
  std::string_view previous;
  std::size_t pos = 0;
  // Bounded: each pass consumes one word and its separator.
  while (pos <= text.size()) {
    std::size_t end = text.find_first_of(" ,", pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(pos, end - pos);
    if (word.find(':') != std::string_view::npos) out += mapped_address(word, ports);
    else if (ipv4(previous) && digits(word)) out += mapped_port(word, ports);
    else out += word;
    if (end < text.size()) out += text[end];
    previous = word;
    pos = end + 1;
  }
  return out;
}

}  // namespace

SentinelQuery sentinel_query_of(const std::vector<std::string>& words) {
  if (words.empty()) return SentinelQuery::other;
  const std::string command = lowercase(words[0]);
  if (command == "role") return SentinelQuery::role;
  if (command == "info") return SentinelQuery::info;
  if (command != "sentinel" || words.size() < 2) return SentinelQuery::other;
  const std::string sub = lowercase(words[1]);
  if (sub == "get-master-addr-by-name") return SentinelQuery::master_address;
  if (sub == "master") return SentinelQuery::instance;
  if (sub == "masters" || sub == "replicas" || sub == "slaves" || sub == "sentinels") return SentinelQuery::instances;
  if (sub == "info-cache") return SentinelQuery::info_cache;
  return SentinelQuery::other;
}

bool answers_sentinel_query(SentinelQuery query, std::string_view reply) {
  if (query == SentinelQuery::other || reply.empty() || (reply[0] != '*' && reply[0] != '$')) return false;
  const RespValue value = parse_resp(reply);
  switch (query) {
    case SentinelQuery::master_address:
      return is_array(value) && value.elements.size() == 2 && value.elements[0].type == '$' && digits(value.elements[1].text);
    case SentinelQuery::instance:
      return instance_shaped(value);
    case SentinelQuery::instances:
      return is_array(value) && std::all_of(value.elements.begin(), value.elements.end(), instance_shaped);
    case SentinelQuery::info_cache:
      return is_array(value) && value.elements.size() % 2 == 0;
    case SentinelQuery::role: {
      const std::string role = is_array(value) && !value.elements.empty() ? value.elements[0].text : "";
      return role == "master" || role == "slave" || role == "sentinel";
    }
    case SentinelQuery::info:
      return value.type == '$' && !value.null && value.text.starts_with("# ");
    case SentinelQuery::other:
      break;
  }
  return false;
}

std::string rewrite_sentinel_reply(SentinelQuery query, std::string_view reply, const PortMap& ports) {
  if (query == SentinelQuery::other || reply.empty() || reply[0] == '-') return std::string(reply);
  RespValue value = parse_resp(reply);
  switch (query) {
    case SentinelQuery::master_address:
      if (value.elements.size() == 2) value.elements[1].text = mapped_port(value.elements[1].text, ports);
      break;
    case SentinelQuery::instance:
      rewrite_instance(value, ports);
      break;
    case SentinelQuery::instances:
      for (RespValue& instance : value.elements) rewrite_instance(instance, ports);
      break;
    case SentinelQuery::info_cache:
    case SentinelQuery::info:
      rewrite_info_texts(value, ports);
      break;
    case SentinelQuery::role:
      rewrite_role(value, ports);
      break;
    case SentinelQuery::other:
      break;
  }
  return serialize_resp(value);
}

std::string rewrite_sentinel_push(std::string_view frame, const PortMap& ports) {
  RespValue push = parse_resp(frame);
  const std::size_t channel = push.elements.size() == 4 ? 2 : 1;  // pmessage names its pattern first
  if (push.elements.size() < 3) return std::string(frame);
  const std::string& name = push.elements[channel].text;
  if (!name.starts_with('+') && !name.starts_with('-') && !name.starts_with("__sentinel__:")) return std::string(frame);
  push.elements.back().text = rewrite_event_words(push.elements.back().text, ports);
  return serialize_resp(push);
}

}  // namespace lockcheck::redis_backend
