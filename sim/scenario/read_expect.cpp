// What a scenario checks: the expected verdict per property (or that nothing can be acquired: starved), and
// the user's own Lua scripts for variant "script".
#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "core/user_scripts.hpp"
#include "scenario/readers.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck::sim::scenario_detail {

void read_scripts(const Section& top, const std::string& variant, const std::filesystem::path& base_dir,
                  bool check_files, Scenario::Scripts& out, UserScripts& sources) {
  const auto scripts = top.table("scripts");
  if (!variant_has(variant, &VariantRow::user_scripts)) {
    // Scripts that would be ignored suggest the user meant variant "script".
    if (scripts) scripts->fail_here(fmt::format("[scripts] is only for variant = \"script\", not \"{}\"", variant));
    return;
  }
  if (!scripts) top.fail_at("variant", "variant \"script\" needs a [scripts] table with acquire and release");
  scripts->allow_only({"acquire", "release", "renew"});
  const auto resolve = [&](std::string_view key, std::string& field, std::string& name) {
    const auto relative = scripts->string(key);
    if (!relative) return;
    // Errors and witnesses say "renew.lua:3": the file's name, the same however a path to it is written.
    name = std::filesystem::path(*relative).filename().string();
    if (relative->empty()) scripts->fail_at(key, fmt::format("[scripts] {} must not be empty", key));
    // Relative to the file, not the working directory, so a scenario runs the same from anywhere.
    const std::filesystem::path resolved = std::filesystem::absolute(base_dir / *relative).lexically_normal();
    std::error_code error;
    if (check_files && !std::filesystem::is_regular_file(resolved, error)) {
      scripts->fail_at(key, fmt::format("[scripts] {}: no such file {}", key, resolved.string()));
    }
    field = resolved.string();
  };
  // With the files at hand: read them and probe them now, so a bad script fails before any run.
  const auto load = [&](std::string_view key, const std::string& path, std::string& source) {
    if (!check_files || path.empty()) return;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) scripts->fail_at(key, fmt::format("[scripts] {}: cannot read {}", key, path));
    source = text.str();
  };
  for (std::string_view required : {"acquire", "release"}) {
    if (!scripts->has(required)) scripts->fail_here(fmt::format("[scripts] needs {}", required));
  }
  resolve("acquire", out.acquire, sources.acquire_name);
  resolve("release", out.release, sources.release_name);
  resolve("renew", out.renew, sources.renew_name);
  load("acquire", out.acquire, sources.acquire);
  load("release", out.release, sources.release);
  load("renew", out.renew, sources.renew);
  if (!check_files) return;
  if (const std::optional<ScriptRefusal> refused = check_user_scripts(sources)) {
    const std::string& path = refused->which == "acquire" ? out.acquire : refused->which == "release" ? out.release : out.renew;
    scripts->fail_at(refused->which, fmt::format("[scripts] {} ({}): {}", refused->which, path, refused->problem));
  }
}

// [expect] progress = "starved", starved_because = "CROSSSLOT": the scenario's claim is that the lock cannot
// be acquired at all there, and why; without it a run in which nothing is held can only ever be "unknown".
void read_starved(const Section& expect, std::vector<Expectation>& out) {
  const auto progress = expect.choice("progress", {"starved"});
  const auto because = expect.string("starved_because");
  if (because && !progress) {
    expect.fail_at("starved_because", "[expect] starved_because needs progress = \"starved\" beside it");
  }
  if (!progress) return;
  if (because && because->empty()) {
    expect.fail_at("starved_because", "[expect] starved_because must name the error, e.g. \"CROSSSLOT\"");
  }
  const int line = static_cast<int>(expect.find("progress")->source().begin.line);
  out.push_back({"progress", Expectation::Expected::starved, line, because.value_or("")});
}

// [expect] none = "why": the file is run for something else than verdicts, and says so. Alone in the table.
bool read_none(const Section& expect, std::string& none_because) {
  const auto none = expect.string("none");
  if (!none) return false;
  if (none->empty()) expect.fail_at("none", "[expect] none must say why the file expects no verdict");
  if (expect.toml_table().size() > 1) {
    expect.fail_at("none", "[expect] none says the file expects no verdict: remove it, or the verdicts beside it");
  }
  none_because = *none;
  return true;
}

void read_expectations(const Section& top, bool required, std::vector<Expectation>& out, std::string& none_because) {
  out.clear();
  none_because.clear();
  const auto expect = top.table("expect");
  if (!expect) {
    if (!required) return;
    // A gate that cannot fail: whatever the runs show, nothing differs from what the file expects.
    top.fail_here("no [expect] table: a scenario file says which verdicts its runs must show (e.g. [expect] "
                  "mutual_exclusion_server = \"holds\"), or, when it is run for something else, [expect] none = "
                  "\"why\"; without one a run passes whatever it shows");
  }
  std::vector<std::string_view> allowed(std::begin(kExpectableProperties), std::end(kExpectableProperties));
  allowed.insert(allowed.end(), {"progress", "starved_because", "none"});
  expect->allow_only(allowed);
  if (read_none(*expect, none_because)) return;
  read_starved(*expect, out);
  for (std::string_view property : kExpectableProperties) {
    const auto verdict = expect->choice(property, {"holds", "violated"});
    if (!verdict) continue;
    const int line = static_cast<int>(expect->find(property)->source().begin.line);
    out.push_back({std::string(property),
                   *verdict == "holds" ? Expectation::Expected::holds : Expectation::Expected::violated, line});
  }
  if (required && out.empty()) expect->fail_here("[expect] names no verdict: name one, or say none = \"why\"");
  // Reports follow the file, not the catalogue.
  std::stable_sort(out.begin(), out.end(), [](const Expectation& a, const Expectation& b) { return a.line < b.line; });
}

}  // namespace lockcheck::sim::scenario_detail
