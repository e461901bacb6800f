#include "redis/scripting/lua51_rewrite.hpp"

#include "redis/scripting/lua51_syntax.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

namespace lockcheck::mock {
namespace {

enum class Kind { name, keyword, number, string, symbol };

struct Token {
  Kind kind;
  std::size_t begin;
  std::size_t end;
  std::string_view text;
};

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool is_keyword(std::string_view word) {
  static constexpr std::string_view kKeywords[] = {"and", "break", "do", "else", "elseif", "end", "false",
                                                   "for", "function", "if", "in", "local", "nil", "not",
                                                   "or", "repeat", "return", "then", "true", "until", "while"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), word) != std::end(kKeywords);
}

// Lua 5.1's lexer, reduced to token boundaries. Every step consumes at least one character.
class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(source) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    if (src_.starts_with("#")) skip_line();
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      std::size_t start = pos_;
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '-' && peek(1) == '-') {
        pos_ += 2;
        if (long_bracket_level() >= 0) skip_long_bracket();
        else skip_line();
      } else if (c == '[' && long_bracket_level() >= 0) {
        skip_long_bracket();
        tokens.push_back(make(Kind::string, start));
      } else if (c == '"' || c == '\'') {
        skip_quoted(c);
        tokens.push_back(make(Kind::string, start));
      } else if (is_name_start(c)) {
        while (pos_ < src_.size() && is_name_char(src_[pos_])) ++pos_;
        Token token = make(Kind::name, start);
        if (is_keyword(token.text)) token.kind = Kind::keyword;
        tokens.push_back(token);
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
        skip_number();
        tokens.push_back(make(Kind::number, start));
      } else {
        pos_ += symbol_length();
        tokens.push_back(make(Kind::symbol, start));
      }
    }
    return tokens;
  }

 private:
  char peek(std::size_t ahead) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  Token make(Kind kind, std::size_t start) const { return Token{kind, start, pos_, src_.substr(start, pos_ - start)}; }

  void skip_line() {
    while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
  }

  int long_bracket_level() const { return mock::long_bracket_level(src_, pos_); }
  void skip_long_bracket() { pos_ = long_bracket_end(src_, pos_); }

  void skip_quoted(char quote) {
    ++pos_;
    while (pos_ < src_.size() && src_[pos_] != quote && src_[pos_] != '\n') pos_ += src_[pos_] == '\\' ? 2 : 1;
    pos_ = std::min(pos_ + 1, src_.size());
  }

  // As 5.1's read_numeral: digits and '.', an exponent sign, then any name characters.
  void skip_number() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      char previous = pos_ > 0 ? src_[pos_ - 1] : '\0';
      bool exponent_sign = (c == '+' || c == '-') && (previous == 'e' || previous == 'E');
      if (!is_name_char(c) && c != '.' && !exponent_sign) break;
      ++pos_;
    }
  }

  std::size_t symbol_length() const {
    char c = src_[pos_];
    char next = peek(1);
    if (c == '.' && next == '.') return peek(2) == '.' ? 3 : 2;
    if ((c == '=' || c == '~' || c == '<' || c == '>') && next == '=') return 2;
    return 1;
  }

  std::string_view src_;
  std::size_t pos_ = 0;
};

// A numeral as 5.1 reads it (strtod, which takes hex too), written as a 5.4 float literal with the same
// value. Returns nothing when the text is not a numeral (the compiler then reports it).
std::optional<std::string> as_float_literal(std::string_view text) {
  std::string numeral(text);
  char* end = nullptr;
  double value = std::strtod(numeral.c_str(), &end);
  if (end != numeral.c_str() + numeral.size()) return std::nullopt;
  bool hex = numeral.size() > 1 && (numeral[1] == 'x' || numeral[1] == 'X');
  if (!hex) {
    // A decimal float literal already reads as this double in 5.4.
    if (numeral.find_first_of(".eE") != std::string::npos) return numeral;
    return numeral + ".0";
  }
  if (std::isinf(value)) return std::string("(1e999)");
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  std::string out = buffer;
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

// Binary operators that bind tighter than '..' (all arithmetic), and than '%' on each side: its left
// operand is a left-associative chain of '*', '/', '%' (and '^'), its right operand only a '^' chain.
constexpr std::string_view kTighterThanConcat = "+-*/%^";
constexpr std::string_view kTighterThanModLeft = "*/%^";
constexpr std::string_view kTighterThanModRight = "^";

bool is_one_of(const Token& token, std::string_view operators) {
  return token.kind == Kind::symbol && token.text.size() == 1 && operators.find(token.text[0]) != std::string_view::npos;
}

bool is_symbol(const Token& token, std::string_view text) { return token.kind == Kind::symbol && token.text == text; }

// Does this token end an operand (so a following '(' / '[' / '{' / string is a call or index suffix)?
bool ends_operand(const Token& token) {
  if (token.kind == Kind::name || token.kind == Kind::number || token.kind == Kind::string) return true;
  if (token.kind == Kind::keyword) return token.text == "nil" || token.text == "true" || token.text == "false";
  return is_symbol(token, ")") || is_symbol(token, "]") || is_symbol(token, "}") || is_symbol(token, "...");
}

// Finds the operands of a binary operator: the maximal expressions built from operators that bind tighter
// (unary operators, calls and indexing always; binary ones as given).
class OperandScanner {
 public:
  explicit OperandScanner(const std::vector<Token>& tokens) : tokens_(tokens) {}

  // Token ranges [first, last] of the operands of every `op` ("..": both sides bind tighter than it;
  // "%": see kTighterThanModLeft). An operator whose operands cannot be delimited (a function literal,
  // unbalanced brackets) is left alone: it can only raise or fail to compile.
  struct Operands {
    std::size_t op;
    std::pair<std::size_t, std::size_t> left, right;
  };
  std::vector<Operands> find(std::string_view op, std::string_view left_ops, std::string_view right_ops) const {
    std::vector<Operands> found;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      if (!is_symbol(tokens_[i], op)) continue;
      auto left = left_operand_start(i, left_ops);
      auto right = right_operand_end(i + 1, right_ops);
      if (!left || !right) continue;
      found.push_back({i, {*left, i - 1}, {i + 1, *right}});
    }
    return found;
  }

 private:
  // The matching opener of the bracket at `close`, scanning back.
  std::optional<std::size_t> opener_of(std::size_t close) const {
    int depth = 0;
    for (std::size_t j = close + 1; j-- > 0;) {
      const Token& t = tokens_[j];
      if (is_symbol(t, ")") || is_symbol(t, "]") || is_symbol(t, "}")) ++depth;
      if (is_symbol(t, "(") || is_symbol(t, "[") || is_symbol(t, "{")) --depth;
      if (depth == 0) return j;
    }
    return std::nullopt;
  }

  std::optional<std::size_t> closer_of(std::size_t open) const {
    int depth = 0;
    for (std::size_t j = open; j < tokens_.size(); ++j) {
      const Token& t = tokens_[j];
      if (is_symbol(t, "(") || is_symbol(t, "[") || is_symbol(t, "{")) ++depth;
      if (is_symbol(t, ")") || is_symbol(t, "]") || is_symbol(t, "}")) --depth;
      if (depth == 0) return j;
    }
    return std::nullopt;
  }

  bool is_unary(std::size_t j) const {
    const Token& t = tokens_[j];
    if (is_symbol(t, "#") || (t.kind == Kind::keyword && t.text == "not")) return true;
    return is_symbol(t, "-") && (j == 0 || !ends_operand(tokens_[j - 1]));
  }

  // Can a '(' / '[' / '{' / string at j be a call or index suffix of what precedes it?
  bool is_suffix_at(std::size_t j) const {
    if (j == 0) return false;
    const Token& before = tokens_[j - 1];
    return before.kind == Kind::name || before.kind == Kind::string || is_symbol(before, ")") ||
           is_symbol(before, "]") || is_symbol(before, "}");
  }

  // The first token of the suffixed primary expression that ends at j.
  std::optional<std::size_t> primary_start(std::size_t j) const {
    // Each round steps back over one suffix; bounded by j.
    while (true) {
      const Token& t = tokens_[j];
      if (is_symbol(t, ")") || is_symbol(t, "]") || is_symbol(t, "}")) {
        auto open = opener_of(j);
        if (!open) return std::nullopt;
        if (!is_suffix_at(*open)) return is_symbol(t, "]") ? std::nullopt : open;
        j = *open - 1;
      } else if (t.kind == Kind::name) {
        if (j < 2 || !(is_symbol(tokens_[j - 1], ".") || is_symbol(tokens_[j - 1], ":"))) return j;
        j -= 2;
      } else if (t.kind == Kind::string) {
        if (!is_suffix_at(j)) return j;
        j -= 1;
      } else if (t.kind == Kind::number || is_symbol(t, "...") ||
                 (t.kind == Kind::keyword && (t.text == "nil" || t.text == "true" || t.text == "false"))) {
        return j;
      } else {
        return std::nullopt;  // e.g. a function literal's 'end': rare, not delimited
      }
    }
  }

  // Scans back from the token before the operator at `op` to the first token of its left operand.
  std::optional<std::size_t> left_operand_start(std::size_t op, std::string_view tighter) const {
    if (op == 0) return std::nullopt;
    std::size_t j = op - 1;
    // Each round steps back over one operand and the operator before it; bounded by the index.
    while (true) {
      auto start = primary_start(j);
      if (!start) return std::nullopt;
      j = *start;
      while (j > 0 && is_unary(j - 1)) --j;
      if (j > 1 && is_one_of(tokens_[j - 1], tighter)) {
        j -= 2;
        continue;
      }
      return j;
    }
  }

  // Scans forward from the first token after the operator to the last token of its right operand.
  std::optional<std::size_t> right_operand_end(std::size_t start, std::string_view tighter) const {
    std::size_t j = start;
    // Each round steps over one operand and the operator after it; bounded by the token count.
    while (true) {
      while (j < tokens_.size() && is_unary(j)) ++j;
      if (j >= tokens_.size()) return std::nullopt;
      const Token& t = tokens_[j];
      bool suffixable = true;
      if (is_symbol(t, "(") || is_symbol(t, "{")) {
        auto close = closer_of(j);
        if (!close) return std::nullopt;
        j = *close;
      } else if (t.kind == Kind::number || is_symbol(t, "...") ||
                 (t.kind == Kind::keyword && (t.text == "nil" || t.text == "true" || t.text == "false"))) {
        suffixable = false;
      } else if (t.kind != Kind::name && t.kind != Kind::string) {
        return std::nullopt;  // e.g. a function literal: rare, not delimited
      }
      // Suffixes: .name :name [..] (..) {..} "..".
      while (suffixable && j + 1 < tokens_.size()) {
        const Token& next = tokens_[j + 1];
        if ((is_symbol(next, ".") || is_symbol(next, ":")) && j + 2 < tokens_.size() && tokens_[j + 2].kind == Kind::name) {
          j += 2;
        } else if (is_symbol(next, "[") || is_symbol(next, "(") || is_symbol(next, "{")) {
          auto close = closer_of(j + 1);
          if (!close) return std::nullopt;
          j = *close;
        } else if (next.kind == Kind::string) {
          j += 1;
        } else {
          break;
        }
      }
      if (j + 2 < tokens_.size() && is_one_of(tokens_[j + 1], tighter)) {
        j += 2;
        continue;
      }
      return j;
    }
  }

  const std::vector<Token>& tokens_;
};

// What 5.1 names an operand in "attempt to concatenate <name> (a nil value)", passed to the hooks:
// "'n:x'" for a variable x (local, upvalue or global: decided at run time), "'f:k'" for t.k or t['k'],
// "'f:?'" for any other index, "nil" for other expressions.
std::string variable_hint(const std::vector<Token>& tokens, std::size_t first, std::size_t last) {
  const Token& end = tokens[last];
  if (first == last && end.kind == Kind::name) return "'n:" + std::string(end.text) + "'";
  if (end.kind == Kind::name && last >= 1 && is_symbol(tokens[last - 1], ".")) return "'f:" + std::string(end.text) + "'";
  if (is_symbol(end, "]") && last >= 2 && is_symbol(tokens[last - 2], "[")) {
    const Token& key = tokens[last - 1];
    bool plain_string = key.kind == Kind::string && key.text.size() >= 2 && key.text[0] != '[' &&
                        key.text.find_first_of("\\'\"", 1) == key.text.size() - 1;
    if (plain_string) return "'f:" + std::string(key.text.substr(1, key.text.size() - 2)) + "'";
  }
  if (is_symbol(end, "]")) return "'f:?'";
  return "nil";
}

bool is_keyword(const Token& token, std::string_view word) { return token.kind == Kind::keyword && token.text == word; }

// The end of each parameter list "(..., ...)" whose function body never says `...` itself (a nested
// function's `...` is its own): there 5.1, built with LUA_COMPAT_VARARG as Redis is, gives the body a
// local `arg`. Block openers are counted to find the body's `end` (`while` and `for` open with `do`).
std::vector<std::size_t> vararg_functions_using_arg(const std::vector<Token>& tokens) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!is_keyword(tokens[i], "function")) continue;
    std::size_t close = i + 1;
    while (close < tokens.size() && !is_symbol(tokens[close], ")")) ++close;
    if (close >= tokens.size() || !is_symbol(tokens[close - 1], "...")) continue;
    std::vector<bool> open_blocks;  // true: a nested function
    std::size_t nested_functions = 0;
    bool says_varargs = false;
    for (std::size_t j = close + 1; j < tokens.size(); ++j) {
      const Token& t = tokens[j];
      if (is_keyword(t, "function") || is_keyword(t, "if") || is_keyword(t, "do") || is_keyword(t, "repeat")) {
        open_blocks.push_back(is_keyword(t, "function"));
        nested_functions += open_blocks.back() ? 1 : 0;
      } else if (is_keyword(t, "end") || is_keyword(t, "until")) {
        if (open_blocks.empty()) break;
        nested_functions -= open_blocks.back() ? 1 : 0;
        open_blocks.pop_back();
      } else if (is_symbol(t, "...") && nested_functions == 0) {
        says_varargs = true;
        break;
      }
    }
    if (!says_varargs) found.push_back(tokens[close].end);
  }
  return found;
}

}  // namespace

std::string rewrite_for_lua51_numbers(std::string_view source) {
  std::vector<Token> tokens = Lexer(source).run();
  // Edits applied in one pass, by position: at one position closers go first, then openers (outer span
  // first; a ".." wrapper outside a "%" one of the same span), then replacements of the token there.
  struct Edit {
    std::size_t at;
    int order;  // 0 closer, 1 opener, 2 replacement
    std::size_t span;
    int depth;  // 0 for the ".." hook, 1 for the "%" hook: "..'s" operand can contain a "%", never the reverse
    std::string text;
    std::size_t erase = 0;
  };
  std::vector<Edit> edits;
  auto wrap = [&](std::size_t begin, std::size_t end, int depth, std::string open, std::string close) {
    edits.push_back({begin, 1, end - begin, depth, std::move(open)});
    edits.push_back({end, 0, end - begin, depth, std::move(close)});
  };
  OperandScanner scanner(tokens);
  std::vector<std::pair<std::size_t, std::size_t>> concat_operands;
  for (const auto& found : scanner.find("..", kTighterThanConcat, kTighterThanConcat)) {
    concat_operands.push_back(found.left);
    concat_operands.push_back(found.right);
  }
  std::sort(concat_operands.begin(), concat_operands.end());
  concat_operands.erase(std::unique(concat_operands.begin(), concat_operands.end()), concat_operands.end());
  for (auto [first, last] : concat_operands) {
    if (first == last && tokens[first].kind == Kind::string) continue;  // already a string
    wrap(tokens[first].begin, tokens[last].end, 0, std::string(kConcatOperand) + "(",
         "," + variable_hint(tokens, first, last) + ")");
  }
  for (const auto& found : scanner.find("%", kTighterThanModLeft, kTighterThanModRight)) {
    wrap(tokens[found.left.first].begin, tokens[found.right.second].end, 1, std::string(kModulo) + "(",
         "," + variable_hint(tokens, found.left.first, found.left.second) + "," +
             variable_hint(tokens, found.right.first, found.right.second) + ")");
    edits.push_back({tokens[found.op].begin, 2, 0, 0, ",", 1});
  }
  for (const Token& token : tokens) {
    if (token.kind != Kind::number) continue;
    auto literal = as_float_literal(token.text);
    if (literal && *literal != token.text) edits.push_back({token.begin, 2, 0, 0, *literal, token.end - token.begin});
  }
  for (std::size_t at : vararg_functions_using_arg(tokens)) {
    edits.push_back({at, 2, 0, 0, " local arg = " + std::string(kVarargTable) + "(...);"});
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.order != b.order) return a.order < b.order;
    if (a.span != b.span) return a.order == 1 ? a.span > b.span : a.span < b.span;
    return a.order == 1 ? a.depth < b.depth : a.depth > b.depth;
  });
  std::string out;
  out.reserve(source.size() + edits.size() * 12);
  std::size_t copied = 0;
  for (const Edit& edit : edits) {
    out.append(source.substr(copied, edit.at - copied));
    out += edit.text;
    copied = edit.at + edit.erase;
  }
  out.append(source.substr(copied));
  return out;
}

}  // namespace lockcheck::mock
