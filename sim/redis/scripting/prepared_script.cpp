#include "redis/scripting/prepared_script.hpp"

#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "redis/scripting/embedded_chunk.hpp"
#include "redis/scripting/lua51_lib.hpp"
#include "redis/scripting/lua51_rewrite.hpp"
#include "redis/scripting/lua51_syntax.hpp"

namespace lockcheck::mock {
namespace {

// More distinct bodies than any search or test suite sends; a bound, so that a client sending endless distinct
// scripts (a script per value, as some do) grows nothing here.
constexpr std::size_t kKeptBodies = 4096;

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  // Bounded by the number of separators.
  while (true) {
    std::size_t at = text.find(separator, start);
    parts.emplace_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// Reads a "#!lua flags=..." first line as Redis 7.0's evalExtractShebangFlags does, then blanks it
// (keeping the newline, so line numbers stay). Returns Redis's error text for a shebang it refuses.
std::optional<std::string> read_shebang(std::string& body, PreparedScript& script) {
  if (!body.starts_with("#!")) return std::nullopt;
  std::size_t end = body.find('\n');
  if (end == std::string::npos) return "ERR Invalid script shebang";
  std::vector<std::string> parts;
  for (std::string& word : split(std::string_view(body).substr(0, end), ' ')) {
    std::erase_if(word, [](char c) { return c == '\t' || c == '\r'; });
    if (!word.empty()) parts.push_back(std::move(word));
  }
  if (parts.empty()) return "ERR Invalid engine in script shebang";
  if (parts[0] != "#!lua") return "ERR Unexpected engine in script shebang: " + parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (!parts[i].starts_with("flags=")) return "ERR Unknown lua shebang option: " + parts[i];
    std::string_view flags = std::string_view(parts[i]).substr(6);
    for (const std::string& flag : flags.empty() ? std::vector<std::string>{} : split(flags, ',')) {
      if (flag == "no-writes") script.no_writes = true;
      else if (flag == "allow-oom") script.allow_oom = true;
      else if (flag != "allow-stale" && flag != "no-cluster" && flag != "allow-cross-slot-keys") {
        return "ERR Unexpected flag in script shebang: " + flag;
      }
    }
  }
  script.shebang = true;
  std::memset(body.data(), ' ', end);
  return std::nullopt;
}

PreparedScript prepare(std::string_view body) {
  PreparedScript script;
  std::string source(body);
  if (auto refused = read_shebang(source, script)) {
    script.refusal = std::move(refused);
    return script;
  }
  if (auto issue = find_lua54_only_syntax(source)) {
    script.refusal = std::string(kScriptCompileError) + "user_script:" + std::to_string(issue->line) + ": " + issue->message;
    return script;
  }
  source = rewrite_for_lua51_numbers(source);
  std::string error;
  script.bytecode = compile_chunk(source, "@user_script", error);
  if (script.bytecode.empty()) script.refusal = std::string(kScriptCompileError) + lua51_error_wording(error);
  return script;
}

}  // namespace

std::shared_ptr<const PreparedScript> prepared_script(std::string_view body) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const PreparedScript>, std::less<>> kept;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = kept.find(body); it != kept.end()) return it->second;
  }
  // Prepared outside the lock: another thread may prepare the same body meanwhile, to the same result.
  auto script = std::make_shared<const PreparedScript>(prepare(body));
  const std::lock_guard<std::mutex> lock(mutex);
  if (kept.size() < kKeptBodies) kept.emplace(std::string(body), script);
  return script;
}

}  // namespace lockcheck::mock
