// explain_find tells what a node's copy of the key held as the checkers see it: replicas record no key events, so
// after a failover the promoted node holds what its old master held (less what the old master's `lost` lines at
// the failover say it lacked), and a node that rejoins as a replica holds nothing of its own.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "explain.hpp"
#include "properties/history.hpp"

namespace lockcheck::explore {
namespace {

constexpr const char* kMeta =
    R"({"i":0,"t":0,"kind":"meta","schema":1,"scenario":"s","seed":1,"variant":"script","ttl_ms":1000,"clients":5,"nodes":2,"end":5000000,)"
    R"("script_files":{"c6747285e42bbe8fc9b03b77214f0c01b60dce4a":"cleanup_release.lua"}})";

// Process 3 takes the key on node 0 (its replica, node 1, records nothing); node 1 is promoted; process 4's
// release deletes the key on node 1. Process 3 crashed before the reply that would have named its token. `between` goes after the failover line.
std::string story_of_delete_after_failover(const std::string& between) {
  std::string text = std::string(kMeta) + "\n";
  text += R"({"i":1,"t":3000000,"kind":"op","type":"invoke","process":3,"f":"acquire","key":"lock","local":3000000})" "\n";
  text += R"({"i":2,"t":3062517,"kind":"server","node":0,"event":"created","key":"lock","value":"aeb2903e794110e80d5bdf76e8b4bc3a","by":3,"command":"SET","node_time_ms":3062,"expire_at_ms":4062})" "\n";
  text += R"({"i":3,"t":3062600,"kind":"fault","fault":"crash","process":3})" "\n";  // before its reply
  text += R"({"i":4,"t":3916000,"kind":"fault","fault":"failover","node":1,"from":0})" "\n";
  text += between;
  text += R"({"i":6,"t":4002755,"kind":"server","node":1,"event":"deleted","key":"lock","value":"","by":4,"command":"DEL","script":"c6747285e42bbe8fc9b03b77214f0c01b60dce4a","node_time_ms":4002,"expire_at_ms":-1})" "\n";
  text += R"({"i":7,"t":5000000,"kind":"end"})" "\n";
  properties::Verdict verdict;
  verdict.property = "owner_only_release";
  verdict.witnesses = {6};
  std::string story;
  for (const std::string& sentence : explain_find(properties::parse_history(text), verdict)) story += sentence + "\n";
  return story;
}

TEST(ExplainFind, APromotedNodeHoldsWhatItsOldMasterHeld) {
  const std::string story = story_of_delete_after_failover(R"({"i":5,"t":3916000,"kind":"op","type":"invoke","process":2,"f":"acquire","key":"lock","local":3916000})" "\n");
  EXPECT_NE(story.find("cleanup_release.lua (DEL) by process 4 at t=4.002755s on node 1: the key held process 3's token "
                       "(aeb2903e.., 60 ms left) before, nothing after"),
            std::string::npos)
      << story;
}

TEST(ExplainFind, APromotedNodeLacksWhatTheOldMastersLostLinesSay) {
  const std::string story = story_of_delete_after_failover(
      R"({"i":5,"t":3916000,"kind":"server","node":0,"event":"lost","key":"lock","value":"","by":-1,"command":"","node_time_ms":3916,"expire_at_ms":-1})"
      "\n");
  EXPECT_NE(story.find("on node 1: the key held nothing before, nothing after"), std::string::npos) << story;
}

// A release whose reply was lost is sent again within the same operation: the history shows one invoke and the
// script running twice, the second time on another process's key. The story says so.
TEST(ExplainFind, AScriptSentAgainWithinOneOperationIsTold) {
  std::string text = std::string(kMeta) + "\n";
  text += R"({"i":1,"t":993979,"kind":"op","type":"invoke","process":1,"f":"release","key":"lock","local":993979,"token":"b2e1d537d7612ac3e5361715cb4fdf76"})" "\n";
  text += R"({"i":2,"t":994178,"kind":"server","node":0,"event":"deleted","key":"lock","value":"","by":1,"command":"GETDEL","script":"c6747285e42bbe8fc9b03b77214f0c01b60dce4a","node_time_ms":994,"expire_at_ms":-1})" "\n";
  text += R"({"i":3,"t":1017691,"kind":"server","node":0,"event":"created","key":"lock","value":"0b6cd916000000000000000000000000","by":0,"command":"SET","node_time_ms":1017,"expire_at_ms":2017})" "\n";
  text += R"({"i":4,"t":1496173,"kind":"server","node":0,"event":"deleted","key":"lock","value":"","by":1,"command":"GETDEL","script":"c6747285e42bbe8fc9b03b77214f0c01b60dce4a","node_time_ms":1496,"expire_at_ms":-1})" "\n";
  text += R"({"i":5,"t":1496389,"kind":"op","type":"ok","process":1,"f":"release","key":"lock","local":1496389,"token":"b2e1d537d7612ac3e5361715cb4fdf76","result":"released"})" "\n";
  text += R"({"i":6,"t":2000000,"kind":"end"})" "\n";
  properties::Verdict verdict;
  verdict.property = "owner_only_release";
  verdict.witnesses = {3, 4};
  std::string story;
  for (const std::string& sentence : explain_find(properties::parse_history(text), verdict)) story += sentence + "\n";
  EXPECT_NE(story.find("process 1's release (sent at t=0.993979s) ran cleanup_release.lua (GETDEL) on node 0 at "
                       "t=0.994178s and again at t=1.496173s"),
            std::string::npos)
      << story;
}

}  // namespace
}  // namespace lockcheck::explore
