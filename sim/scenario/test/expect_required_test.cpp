// A scenario file without [expect] is a gate that cannot fail: whatever its runs show, nothing differs from what
// it expects. The loader refuses it at the file's first line; a file run for something else than verdicts says
// so with [expect] none = "why" (issue 34, item 9).
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <gtest/gtest.h>

#include "scenario/scenario.hpp"

namespace lockcheck::sim {
namespace {

namespace fs = std::filesystem;

class ExpectRequired : public ::testing::Test {
 protected:
  void TearDown() override { fs::remove(path_); }

  std::string load_error(const std::string& text) {
    std::ofstream(path_) << text;
    try {
      load_scenario(path_.string());
    } catch (const ScenarioError& error) {
      return error.what();
    }
    return "no error";
  }

  fs::path path_ = fs::temp_directory_path() / ("lockcheck_expect_test_" + std::to_string(::getpid()) + ".toml");
};

TEST_F(ExpectRequired, AFileWithoutExpectIsRefusedAtItsFirstLine) {
  EXPECT_EQ(load_error("variant = \"token\"\nseeds = 2\n"),
            path_.string() + ":1:1: no [expect] table: a scenario file says which verdicts its runs must show (e.g. "
                             "[expect] mutual_exclusion_server = \"holds\"), or, when it is run for something else, "
                             "[expect] none = \"why\"; without one a run passes whatever it shows");
}

TEST_F(ExpectRequired, AnEmptyExpectIsRefusedAtTheTable) {
  EXPECT_EQ(load_error("seeds = 2\n\n[expect]\n"),
            path_.string() + ":3:1: [expect] names no verdict: name one, or say none = \"why\"");
}

TEST_F(ExpectRequired, NoneSaysWhyAndStandsAlone) {
  EXPECT_EQ(load_error("[expect]\nnone = \"the client is a test double\"\n"), "no error");
  EXPECT_EQ(load_error("[expect]\nnone = \"\"\n"),
            path_.string() + ":2:8: [expect] none must say why the file expects no verdict");
  EXPECT_EQ(load_error("[expect]\nnone = \"why\"\nmutual_exclusion_server = \"holds\"\n"),
            path_.string() + ":2:8: [expect] none says the file expects no verdict: remove it, or the verdicts beside it");
}

TEST(ExpectRequiredText, TextParsedWithoutAFileMayLeaveItOut) {
  EXPECT_TRUE(parse_scenario("seeds = 2\n", "x.toml").expectations.empty());
  EXPECT_EQ(parse_scenario("[expect]\nnone = \"why\"\n", "x.toml").expects_none_because, "why");
}

}  // namespace
}  // namespace lockcheck::sim
