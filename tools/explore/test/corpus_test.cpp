// explore --corpus DIR: a search's kept runs written one file per run, named by content, read back as the same
// runs; a later search resumes from them outside its run budget; a damaged file is an error naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "core/simulate.hpp"
#include "corpus.hpp"
#include "explorer.hpp"
#include "scenario/scenario.hpp"

namespace lockcheck::explore {
namespace {

ExploreOptions corpus_search(std::uint64_t seed, std::uint64_t runs) {
  ExploreOptions options;
  options.seed = seed;
  options.budget_runs = runs;
  options.jobs = 2;
  options.all_properties = true;
  options.shrink_simulations = 0;  // the corpus is about kept runs, not finds
  return options;
}

// A fresh folder per test, removed after it.
class ExploreCorpus : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = ::testing::TempDir() + "/explore-corpus-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  std::string directory_;
};

std::vector<RunPlan> kept_runs_of(const std::string& variant, std::uint64_t seed, std::uint64_t runs) {
  Explorer explorer(explore_base_for_variant(variant), false, corpus_search(seed, runs));
  for (int step = 0; step < 1000 && explorer.step(); ++step) {
  }
  return explorer.kept_runs();
}

TEST_F(ExploreCorpus, KeptRunsReadBackAsTheSameRuns) {
  const std::vector<RunPlan> kept = kept_runs_of("token", 3, 40);
  ASSERT_FALSE(kept.empty());
  const CorpusWritten written = write_corpus(kept, "token", directory_);
  EXPECT_TRUE(written.problems.empty());
  EXPECT_EQ(written.written + written.present, kept.size());
  const CorpusLoaded loaded = load_corpus(directory_, "token", explore_base_for_variant("token"));
  ASSERT_EQ(loaded.runs.size(), written.written);
  // Every loaded run is one of the kept runs: byte for byte the same history as one of them.
  std::set<std::uint64_t> kept_histories;
  for (const RunPlan& plan : kept) kept_histories.insert(sim::simulate(plan.config, plan.seed).history.hash());
  for (const RunPlan& run : loaded.runs) {
    EXPECT_EQ(kept_histories.count(sim::simulate(run.config, run.seed).history.hash()), 1u) << "seed " << run.seed;
  }
}

TEST_F(ExploreCorpus, ACorpusFileIsAScenarioThatExpectsNothing) {
  // lockcheck run and replay load it (they want an [expect] table); it gates no verdict.
  write_corpus(kept_runs_of("token", 3, 40), "token", directory_);
  for (const auto& entry : std::filesystem::directory_iterator(directory_)) {
    const sim::Scenario scenario = sim::load_scenario(entry.path().string());
    EXPECT_TRUE(scenario.expectations.empty());
    EXPECT_FALSE(scenario.expects_none_because.empty());
  }
}

TEST_F(ExploreCorpus, TheSameRunIsOneFileWhoeverWritesIt) {
  const std::vector<RunPlan> kept = kept_runs_of("token", 3, 40);
  const CorpusWritten first = write_corpus(kept, "token", directory_);
  const CorpusWritten again = write_corpus(kept, "token", directory_);  // another shard, another night
  EXPECT_EQ(again.written, 0u);
  EXPECT_EQ(again.present, first.written + first.present);
}

TEST_F(ExploreCorpus, AnotherLocksRunsAreNotLoaded) {
  write_corpus(kept_runs_of("token-wait", 3, 24), "token-wait", directory_);
  EXPECT_TRUE(load_corpus(directory_, "token", explore_base_for_variant("token")).runs.empty());
  EXPECT_FALSE(load_corpus(directory_, "token-wait", explore_base_for_variant("token-wait")).runs.empty());
}

TEST_F(ExploreCorpus, ADamagedFileIsAnErrorThatNamesIt) {
  std::filesystem::create_directories(directory_);
  const std::string bad = directory_ + "/token-00000000000000ff.toml";
  std::ofstream(bad) << "variant = \"token\"\nduration_ms = [\n";
  try {
    load_corpus(directory_, "token", explore_base_for_variant("token"));
    FAIL() << "a damaged corpus file was loaded";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("token-00000000000000ff.toml:2"), std::string::npos) << error.what();
  }
}

TEST_F(ExploreCorpus, AResumedSearchRunsTheCorpusFirstAndOutsideItsBudget) {
  const std::vector<RunPlan> kept = kept_runs_of("token", 3, 40);
  write_corpus(kept, "token", directory_);
  const CorpusLoaded loaded = load_corpus(directory_, "token", explore_base_for_variant("token"));
  Explorer resumed(explore_base_for_variant("token"), false, corpus_search(4, 16));
  resumed.resume_from(loaded.runs);
  for (int step = 0; step < 1000 && resumed.step(); ++step) {
  }
  EXPECT_EQ(resumed.result().corpus_loaded, loaded.runs.size());
  EXPECT_EQ(resumed.result().runs, loaded.runs.size() + 16);
  // What the corpus reached is reached before the search's own first run: every resumed run reached a mark.
  EXPECT_GE(resumed.result().corpus, 1u);
}

}  // namespace
}  // namespace lockcheck::explore
