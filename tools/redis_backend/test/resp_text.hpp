#pragma once
// RESP2 bytes for the address rewriting tests (cluster_reply_rewrite_test.cpp, sentinel_reply_rewrite_test.cpp).
#include <initializer_list>
#include <string>

#include "port_map.hpp"

namespace lockcheck::redis_backend::testing_text {

// A request (or a pushed message) as an array of bulk strings.
inline std::string command(std::initializer_list<std::string> words) {
  std::string out = "*" + std::to_string(words.size()) + "\r\n";
  for (const std::string& word : words) out += "$" + std::to_string(word.size()) + "\r\n" + word + "\r\n";
  return out;
}

inline std::string bulk(const std::string& text) { return "$" + std::to_string(text.size()) + "\r\n" + text + "\r\n"; }

inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

// `text` with every mapped port written as its front (the tests' fronts have as many digits as the ports).
inline std::string with_fronts(std::string text, const PortMap& fronts) {
  for (const auto& [named, front] : fronts) text = replaced(text, std::to_string(named), std::to_string(front));
  return text;
}

}  // namespace lockcheck::redis_backend::testing_text
