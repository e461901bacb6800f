#include "command_words.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "resp_value.hpp"

namespace lockcheck::redis_backend {

std::vector<std::string> words_of(std::string_view frame) {
  std::vector<std::string> words;
  if (frame.empty()) return words;
  if (frame[0] != '*') {
    std::istringstream line{std::string(frame)};
    for (std::string word; line >> word;) words.push_back(word);
    return words;
  }
  for (const RespValue& element : parse_resp(frame).elements) words.push_back(element.text);
  return words;
}

std::string lowercase(std::string_view word) {
  std::string out(word);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace lockcheck::redis_backend
