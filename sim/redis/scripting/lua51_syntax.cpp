#include "redis/scripting/lua51_syntax.hpp"

#include <cctype>

namespace lockcheck::mock {
namespace {

constexpr std::string_view kSuffix = " is not Lua 5.1 syntax; Redis runs scripts on Lua 5.1, so it would fail there";

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Scanner {
 public:
  explicit Scanner(std::string_view source) : src_(source) {}

  std::optional<SyntaxIssue> run() {
    if (src_.starts_with("#")) skip_line();  // a shebang line, as lua.c allows
    // Every iteration consumes at least one character, so the loop is bounded by the source length.
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '-' && peek(1) == '-') {
        pos_ += 2;
        if (long_bracket_level() >= 0) skip_long_bracket();
        else skip_line();
      } else if (c == '[' && long_bracket_level() >= 0) {
        skip_long_bracket();
      } else if (c == '"' || c == '\'') {
        if (auto issue = skip_quoted(c)) return issue;
      } else if (is_name_start(c)) {
        std::size_t start = pos_;
        while (pos_ < src_.size() && is_name_char(src_[pos_])) ++pos_;
        std::string_view name = src_.substr(start, pos_ - start);
        if (name == "goto") return issue("'goto' statement");
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
        skip_number();
      } else {
        if (auto found = operator_issue()) return found;
      }
    }
    return std::nullopt;
  }

 private:
  char peek(std::size_t ahead) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }

  SyntaxIssue issue(std::string_view construct) const {
    return SyntaxIssue{line_, std::string(construct) + std::string(kSuffix)};
  }

  void skip_line() {
    while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
  }

  int long_bracket_level() const { return mock::long_bracket_level(src_, pos_); }

  void skip_long_bracket() {
    std::size_t stop = long_bracket_end(src_, pos_);
    for (; pos_ < stop; ++pos_) {
      if (src_[pos_] == '\n') ++line_;
    }
  }

  std::optional<SyntaxIssue> skip_quoted(char quote) {
    ++pos_;
    while (pos_ < src_.size() && src_[pos_] != quote) {
      char c = src_[pos_];
      if (c == '\n') return std::nullopt;  // unfinished string: the compiler reports it
      if (c == '\\') {
        char escaped = peek(1);
        if (escaped == 'x') return issue("string escape '\\x' (5.1 reads \"\\x41\" as \"x41\")");
        if (escaped == 'z') return issue("string escape '\\z'");
        if (escaped == 'u') return issue("string escape '\\u{...}'");
        if (escaped == '\n') ++line_;
        pos_ += 2;
        continue;
      }
      ++pos_;
    }
    ++pos_;  // closing quote
    return std::nullopt;
  }

  void skip_number() {
    // Digits, hex digits, '.', and exponent signs: enough to step over any numeral.
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      char previous = pos_ > 0 ? src_[pos_ - 1] : '\0';
      bool exponent_sign = (c == '+' || c == '-') && (previous == 'e' || previous == 'E' || previous == 'p' || previous == 'P');
      if (!is_name_char(c) && c != '.' && !exponent_sign) break;
      ++pos_;
    }
  }

  std::optional<SyntaxIssue> operator_issue() {
    char c = src_[pos_];
    char next = peek(1);
    if (c == '/' && next == '/') return issue("integer division operator '//'");
    if (c == ':' && next == ':') return issue("label '::name::'");
    if (c == '<' && next == '<') return issue("bitwise operator '<<'");
    if (c == '>' && next == '>') return issue("bitwise operator '>>'");
    if (c == '&') return issue("bitwise operator '&'");
    if (c == '|') return issue("bitwise operator '|'");
    if (c == '~' && next != '=') return issue("bitwise operator '~'");
    if (c == '<') {
      // A variable attribute: "local x <const> = 1" / "<close>".
      std::size_t i = 1;
      while (peek(i) == ' ' || peek(i) == '\t') ++i;
      std::size_t start = pos_ + i;
      while (is_name_char(peek(i))) ++i;
      std::string_view name = src_.substr(start, pos_ + i - start);
      while (peek(i) == ' ' || peek(i) == '\t') ++i;
      if ((name == "const" || name == "close") && peek(i) == '>') return issue("attribute '<" + std::string(name) + ">'");
    }
    ++pos_;
    return std::nullopt;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

int long_bracket_level(std::string_view source, std::size_t pos) {
  auto at = [&](std::size_t i) { return pos + i < source.size() ? source[pos + i] : '\0'; };
  if (at(0) != '[') return -1;
  std::size_t i = 1;
  while (at(i) == '=') ++i;
  return at(i) == '[' ? static_cast<int>(i - 1) : -1;
}

std::size_t long_bracket_end(std::string_view source, std::size_t pos) {
  int level = long_bracket_level(source, pos);
  std::string close = "]" + std::string(static_cast<std::size_t>(level), '=') + "]";
  std::size_t end = source.find(close, pos + static_cast<std::size_t>(level) + 2);
  return end == std::string_view::npos ? source.size() : end + close.size();
}

std::optional<SyntaxIssue> find_lua54_only_syntax(std::string_view source) { return Scanner(source).run(); }

}  // namespace lockcheck::mock
