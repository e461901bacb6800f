#include "split_command.hpp"

#include <stdexcept>

namespace lockcheck::command_line {

std::vector<std::string> split_command(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;  // the quote we are inside, or 0
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote == '\'') {
      if (c == '\'') quote = 0; else word += c;
    } else if (quote == '"') {
      if (c == '"') {
        quote = 0;
      } else if (c == '\\' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) {
        word += line[++i];
      } else {
        word += c;
      }
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      in_word = true;
      if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '\\') {
        if (i + 1 == line.size()) throw std::invalid_argument("the client command ends in a backslash");
        word += line[++i];
      } else {
        word += c;
      }
    }
  }
  if (quote != 0) throw std::invalid_argument(std::string("the client command has an unterminated ") + quote + " quote");
  if (in_word) words.push_back(std::move(word));
  return words;
}

}  // namespace lockcheck::command_line
