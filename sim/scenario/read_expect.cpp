// What a scenario checks: the expected verdict per property, and the user's own Lua scripts for variant
// "script".
#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "core/user_scripts.hpp"
#include "scenario/readers.hpp"

namespace lockcheck::sim::scenario_detail {

void read_scripts(const Section& top, const std::string& variant, const std::filesystem::path& base_dir,
                  bool check_files, Scenario::Scripts& out, UserScripts& sources) {
  const auto scripts = top.table("scripts");
  if (variant != "script") {
    // Scripts that would be ignored suggest the user meant variant "script".
    if (scripts) scripts->fail_here(fmt::format("[scripts] is only for variant = \"script\", not \"{}\"", variant));
    return;
  }
  if (!scripts) top.fail_at("variant", "variant \"script\" needs a [scripts] table with acquire and release");
  scripts->allow_only({"acquire", "release", "renew"});
  const auto resolve = [&](std::string_view key, std::string& field) {
    const auto relative = scripts->string(key);
    if (!relative) return;
    if (relative->empty()) scripts->fail_at(key, fmt::format("[scripts] {} must not be empty", key));
    // Relative to the file, not the working directory, so a scenario runs the same from anywhere.
    const std::filesystem::path resolved = std::filesystem::absolute(base_dir / *relative).lexically_normal();
    std::error_code error;
    if (check_files && !std::filesystem::is_regular_file(resolved, error)) {
      scripts->fail_at(key, fmt::format("[scripts] {}: no such file {}", key, resolved.string()));
    }
    field = resolved.string();
  };
  // With the files at hand: read them and check them now, so a bad script fails before any run.
  const auto load = [&](std::string_view key, const std::string& path, std::string& source) {
    if (!check_files || path.empty()) return;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) scripts->fail_at(key, fmt::format("[scripts] {}: cannot read {}", key, path));
    source = text.str();
    if (const std::string problem = check_user_script(std::string(key), source); !problem.empty()) {
      scripts->fail_at(key, fmt::format("[scripts] {} ({}): {}", key, path, problem));
    }
  };
  for (std::string_view required : {"acquire", "release"}) {
    if (!scripts->has(required)) scripts->fail_here(fmt::format("[scripts] needs {}", required));
  }
  resolve("acquire", out.acquire);
  resolve("release", out.release);
  resolve("renew", out.renew);
  load("acquire", out.acquire, sources.acquire);
  load("release", out.release, sources.release);
  load("renew", out.renew, sources.renew);
}

void read_expectations(const Section& top, std::vector<Expectation>& out) {
  out.clear();
  const auto expect = top.table("expect");
  if (!expect) return;
  expect->allow_only(kExpectableProperties);
  for (std::string_view property : kExpectableProperties) {
    const auto verdict = expect->choice(property, {"holds", "violated"});
    if (!verdict) continue;
    const int line = static_cast<int>(expect->find(property)->source().begin.line);
    out.push_back({std::string(property),
                   *verdict == "holds" ? Expectation::Expected::holds : Expectation::Expected::violated, line});
  }
  // Reports follow the file, not the catalogue.
  std::stable_sort(out.begin(), out.end(), [](const Expectation& a, const Expectation& b) { return a.line < b.line; });
}

}  // namespace lockcheck::sim::scenario_detail
