// The three ways of naming seeds, and the user's scripts for variant "script" resolved against the file.
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "scenario/scenario.hpp"

namespace lockcheck::sim {
namespace {

namespace fs = std::filesystem;

std::string error_of(std::string_view text) {
  try {
    parse_scenario(text, "x.toml");
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "no error";
}

TEST(ScenarioSeeds, Forms) {
  EXPECT_EQ(parse_scenario("seeds = 3\n", "x.toml").seeds, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(parse_scenario("seed = 7\n", "x.toml").seeds, (std::vector<std::uint64_t>{7}));
  EXPECT_EQ(parse_scenario("seed_list = [3, 9, 12]\n", "x.toml").seeds, (std::vector<std::uint64_t>{3, 9, 12}));
  // No seeds named: 1..20, enough for a verdict to rest on more than one roll.
  const std::vector<std::uint64_t> defaults = parse_scenario("", "x.toml").seeds;
  ASSERT_EQ(defaults.size(), 20u);
  EXPECT_EQ(defaults.front(), 1u);
  EXPECT_EQ(defaults.back(), 20u);
}

TEST(ScenarioSeeds, Errors) {
  EXPECT_EQ(error_of("seeds = 3\nseed = 4\n"), "x.toml:2:8: give only one of seeds, seed and seed_list (found seeds and seed)");
  EXPECT_EQ(error_of("seeds = 0\n"), "x.toml:1:9: seeds must be in [1, 1000000], not 0");
  EXPECT_EQ(error_of("seed = -2\n"), "x.toml:1:8: seed must be >= 0, not -2");
  EXPECT_EQ(error_of("seed_list = []\n"), "x.toml:1:13: seed_list must not be empty");
  EXPECT_EQ(error_of("seed_list = [1, \"2\"]\n"), "x.toml:1:17: seed_list entries must be integers, not a string");
  EXPECT_EQ(error_of("seed_list = [1, 5, 1]\n"), "x.toml:1:20: seed_list names seed 1 twice");
}

class ScenarioScripts : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("lockcheck_scenario_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "lua");
    for (const char* name : {"lua/acq.lua", "lua/rel.lua"}) std::ofstream(dir_ / name) << "return 1\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& text) {
    const fs::path file = dir_ / "mine.toml";
    std::ofstream(file) << text;
    return file.string();
  }

  fs::path dir_;
};

TEST_F(ScenarioScripts, ResolvedRelativeToTheFile) {
  const Scenario s = load_scenario(
      write("variant = \"script\"\n[scripts]\nacquire = \"lua/acq.lua\"\nrelease = \"./lua/../lua/rel.lua\"\n"
            "[expect]\nmutual_exclusion_server = \"holds\"\n"));
  EXPECT_EQ(s.name, "mine");
  EXPECT_EQ(s.config.variant, "script");
  EXPECT_EQ(s.scripts.acquire, (dir_ / "lua/acq.lua").string());
  EXPECT_EQ(s.scripts.release, (dir_ / "lua/rel.lua").string());
  EXPECT_TRUE(s.scripts.renew.empty());
  EXPECT_TRUE(fs::path(s.scripts.acquire).is_absolute());
}

TEST_F(ScenarioScripts, MissingFileIsAnErrorAtItsLine) {
  const std::string path =
      write("variant = \"script\"\n[scripts]\nacquire = \"lua/acq.lua\"\nrelease = \"lua/rel.lua\"\nrenew = \"no.lua\"\n");
  try {
    load_scenario(path);
    FAIL() << "no error";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()),
              path + ":5:9: [scripts] renew: no such file " + (dir_ / "no.lua").string());
  }
}

TEST(ScenarioScriptsText, RequiredOnlyForScriptVariant) {
  EXPECT_EQ(error_of("variant = \"script\"\n"),
            "x.toml:1:11: variant \"script\" needs a [scripts] table with acquire and release");
  EXPECT_EQ(error_of("variant = \"script\"\n[scripts]\nacquire = \"a.lua\"\n"), "x.toml:2:1: [scripts] needs release");
  EXPECT_EQ(error_of("[scripts]\nacquire = \"a.lua\"\n"),
            "x.toml:1:1: [scripts] is only for variant = \"script\", not \"token\"");
  // parse_scenario does not open files: relative to the directory of path_for_messages.
  const Scenario s = parse_scenario("variant = \"script\"\n[scripts]\nacquire = \"a.lua\"\nrelease = \"b.lua\"\n",
                                    "/some/dir/s.toml");
  EXPECT_EQ(s.scripts.acquire, "/some/dir/a.lua");
}

TEST(ScenarioLoad, UnreadableFile) {
  try {
    load_scenario("/nonexistent/dir/x.toml");
    FAIL() << "no error";
  } catch (const ScenarioError& error) {
    EXPECT_EQ(std::string(error.what()), "/nonexistent/dir/x.toml: cannot open the scenario file");
  }
}

}  // namespace
}  // namespace lockcheck::sim
