#include "redis/scripting/function_library.hpp"

#include <algorithm>

#include "redis/scripting/lua_engine.hpp"
#include "redis/util/text.hpp"

namespace lockcheck::mock {
namespace {

constexpr std::string_view kBadName =
    "Library names can only contain letters, numbers, or underscores(_) and must be at least one character long";

struct Metadata {
  std::string name;
  std::string engine;
  std::string_view code;  // from the shebang line's newline on
};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Words as sdssplitargs splits them: blanks separate, quotes group ("a b", 'c') and are dropped.
std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> words;
  std::size_t at = 0;
  // Each round consumes at least one character; bounded by the line's length.
  while (at < line.size()) {
    while (at < line.size() && is_blank(line[at])) ++at;
    if (at >= line.size()) break;
    std::string word;
    while (at < line.size() && !is_blank(line[at])) {
      const char c = line[at++];
      if (c != '"' && c != '\'') {
        word += c;
        continue;
      }
      const std::size_t close = line.find(c, at);
      const std::size_t end = close == std::string_view::npos ? line.size() : close;
      word += line.substr(at, end - at);
      at = end == line.size() ? end : end + 1;
    }
    words.push_back(std::move(word));
  }
  return words;
}

// The shebang as functionExtractLibMetaData reads it: "#!<engine> name=<lib>".
std::optional<std::string> read_metadata(std::string_view payload, Metadata& out) {
  if (!payload.starts_with("#!")) return "Missing library metadata";
  const std::size_t end = payload.find('\n');
  if (end == std::string_view::npos) return "Invalid library metadata";
  const std::vector<std::string> parts = split_words(payload.substr(0, end));
  if (parts.empty()) return "Invalid library metadata";
  out.engine = parts[0].substr(2);
  bool has_name = false;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (parts[i].size() >= 5 && iequals(std::string_view(parts[i]).substr(0, 5), "name=")) {
      if (has_name) return "Invalid metadata value, name argument was given multiple times";
      out.name = parts[i].substr(5);
      has_name = true;
      continue;
    }
    return "Invalid metadata value given: " + parts[i];
  }
  if (!has_name) return "Library name was not given";
  out.code = payload.substr(end);
  return std::nullopt;
}

}  // namespace

FunctionLibraries::~FunctionLibraries() { flush(); }

FunctionLibraries::LoadResult FunctionLibraries::load(const std::string& code, bool replace) {
  Metadata metadata;
  if (auto refused = read_metadata(code, metadata)) return {{}, refused};
  if (!valid_function_name(metadata.name)) return {{}, std::string(kBadName)};
  if (!iequals(metadata.engine, "lua")) return {{}, "Engine '" + metadata.engine + "' not found"};
  auto old = libraries_.find(metadata.name);
  if (old != libraries_.end() && !replace) return {{}, "Library '" + metadata.name + "' already exists"};
  FunctionLibrary library{metadata.name, code, {}};
  if (auto failure = lua_.load_library(metadata.code, library.functions)) return {{}, failure};
  if (library.functions.empty()) return {{}, std::string("No functions registered")};
  for (const RegisteredFunction& function : library.functions) {
    auto clash = by_function_.find(to_lower(function.name));
    if (clash != by_function_.end() && clash->second.first != metadata.name) {
      release(library);
      return {{}, "Function " + function.name + " already exists"};
    }
  }
  std::sort(library.functions.begin(), library.functions.end(),
            [](const RegisteredFunction& a, const RegisteredFunction& b) { return a.name < b.name; });
  if (old != libraries_.end()) remove(metadata.name);
  index(library);
  libraries_.emplace(metadata.name, std::move(library));
  ++version_;
  return {metadata.name, std::nullopt};
}

void FunctionLibraries::index(const FunctionLibrary& library) {
  for (std::size_t i = 0; i < library.functions.size(); ++i) {
    // Redis's dictAdd: of two names differing only in case, the first one FCALL finds stays.
    by_function_.try_emplace(to_lower(library.functions[i].name), library.name, i);
  }
}

void FunctionLibraries::release(FunctionLibrary& library) {
  for (const RegisteredFunction& function : library.functions) lua_.release_function(function.callback_ref);
  library.functions.clear();
}

bool FunctionLibraries::remove(const std::string& library_name) {
  auto it = libraries_.find(library_name);
  if (it == libraries_.end()) return false;
  for (const RegisteredFunction& function : it->second.functions) by_function_.erase(to_lower(function.name));
  release(it->second);
  libraries_.erase(it);
  ++version_;
  return true;
}

void FunctionLibraries::flush() {
  for (auto& [name, library] : libraries_) release(library);
  libraries_.clear();
  by_function_.clear();
  ++version_;
}

const RegisteredFunction* FunctionLibraries::find(std::string_view function_name) const {
  auto it = by_function_.find(to_lower(function_name));
  if (it == by_function_.end()) return nullptr;
  return &libraries_.at(it->second.first).functions[it->second.second];
}

std::size_t FunctionLibraries::function_count() const {
  std::size_t count = 0;
  for (const auto& [name, library] : libraries_) count += library.functions.size();
  return count;
}

std::map<std::string, std::string> FunctionLibraries::codes() const {
  std::map<std::string, std::string> out;
  for (const auto& [name, library] : libraries_) out.emplace(name, library.code);
  return out;
}

void FunctionLibraries::restore(const std::map<std::string, std::string>& codes) {
  if (codes == this->codes()) return;
  flush();
  // Each code loaded before, so it loads again; one that no longer would is dropped, as a failed RDB load.
  for (const auto& [name, code] : codes) load(code, false);
}

}  // namespace lockcheck::mock
