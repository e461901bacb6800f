// The variant table (lockcheck/variants/variant_table.cpp) is read by the simulator, the real backend's workers,
// the comparison planner and the public types: these pin what they rely on, so that a new row cannot quietly
// break one of them.
#include <gtest/gtest.h>

#include <set>

#include "lockcheck/errors.hpp"
#include "lockcheck/public_types.hpp"
#include "lockcheck/variants/capabilities.hpp"
#include "lockcheck/variants/registry.hpp"

namespace lockcheck {
namespace {

TEST(VariantTable, IdsAreUniqueAndInCatalogueOrder) {
  std::set<std::string_view> seen;
  for (const VariantRow& row : variant_rows()) EXPECT_TRUE(seen.insert(row.id).second) << row.id;
  // The comparison matrix's rows come in this order: a reordered table would reorder every report.
  ASSERT_EQ(variant_ids().size(), 32u);
  EXPECT_EQ(variant_ids().front(), "exists-then-set");
  EXPECT_EQ(variant_ids().at(3), "token");
  EXPECT_EQ(variant_ids().back(), "script");
}

TEST(VariantTable, EveryRowCanBeBuiltAndRefusesOnlyWithAReason) {
  for (const VariantRow& row : variant_rows()) {
    EXPECT_NE(row.make, nullptr) << row.id;
    EXPECT_EQ(row.renewal == Renewal::refused, !row.refusal.empty()) << row.id;
    // Only rows built from the user's files may renew through them (make_lock checks for a renew.lua).
    EXPECT_EQ(row.user_scripts, row.renewal == Renewal::with_renew_script) << row.id;
  }
}

TEST(VariantTable, WatchdogRefusalFollowsTheRenewalColumn) {
  EXPECT_EQ(watchdog_refusal("token", false), "");
  EXPECT_EQ(watchdog_refusal("redisson-like", false), "variant \"redisson-like\" already renews in the background");
  EXPECT_NE(watchdog_refusal("watch-cas", true).find("transactions"), std::string::npos);
  EXPECT_NE(watchdog_refusal("script", false).find("renew.lua"), std::string::npos);
  EXPECT_EQ(watchdog_refusal("script", true), "");
  EXPECT_EQ(watchdog_refusal("no-such-variant", false), "");
}

TEST(VariantTable, ShapesAndUnknownIds) {
  EXPECT_EQ(lock_shape("redlock", "k", 5).quorum, 3u);
  EXPECT_EQ(lock_shape("redisson-multilock", "k", 3).quorum, 3u) << "every master is one hold";
  EXPECT_EQ(lock_shape("redisson-redlock", "k", 5).quorum, 3u);
  EXPECT_EQ(lock_shape("token", "k", 5).quorum, 0u);
  ASSERT_EQ(lock_shape("rw-two-keys", "k", 1).derived_keys.size(), 2u);
  EXPECT_TRUE(lock_shape("rw-two-keys", "k", 1).derived_keys.front().shared);
  EXPECT_EQ(lock_shape("fenced", "k", 1).state_keys, std::vector<std::string>{"k:fence"});
  EXPECT_EQ(lock_shape("fair", "k", 1).state_keys,
            (std::vector<std::string>{"{k}:fair-queue", "{k}:fair-deadlines"}));
  EXPECT_EQ(lock_shape("fair", "{t}k", 1).state_keys,
            (std::vector<std::string>{"{t}k:fair-queue", "{t}k:fair-deadlines"}));
  EXPECT_EQ(lock_shape("redisson-fair", "k", 1).state_keys,
            (std::vector<std::string>{"redisson_lock_queue:{k}", "redisson_lock_timeout:{k}"}));
  EXPECT_THROW(lock_shape("no-such-variant", "k", 1), InvalidArgument);
  EXPECT_THROW(variant_row("no-such-variant"), InvalidArgument);
  EXPECT_EQ(find_variant("no-such-variant"), nullptr);
}

TEST(VariantTable, PublicTypesAreTheRowsThatNameOne) {
  ASSERT_EQ(public_types().size(), 9u);
  EXPECT_EQ(public_type_of("token")->name, "Mutex");
  EXPECT_TRUE(public_type_of("redisson-like")->owned.reentrant);
  EXPECT_FALSE(public_type_of("rw-owned")->owned.reentrant);
  EXPECT_EQ(public_type_of("set-nx-ex-del"), nullptr);
  EXPECT_EQ(public_type_of("semaphore")->name, "CountingSemaphore");
  EXPECT_TRUE(public_type_of("semaphore")->owned.counting);
  EXPECT_EQ(public_type_of("redisson-semaphore"), nullptr);
  EXPECT_EQ(public_type_of("fair")->name, "FairMutex");
  EXPECT_FALSE(public_type_of("fair")->owned.reentrant);
  EXPECT_EQ(public_type_of("redisson-fair"), nullptr);
}

TEST(VariantTable, CapabilitiesAreTheRowsColumns) {
  EXPECT_EQ(variants_where(renews_in_background),
            (std::vector<std::string>{"client-reentrant", "watchdog-unchecked", "watchdog", "redisson-like",
                                      "redisson-like-retries", "redisson-fenced"}));
  EXPECT_EQ(variants_where(has_shared_mode), (std::vector<std::string>{"rw-two-keys", "rw-hash-timestamps", "rw-owned"}));
  EXPECT_EQ(variants_where(hands_out_fencing_tokens), (std::vector<std::string>{"fenced", "redisson-fenced"}));
  EXPECT_EQ(variants_where(is_reentrant), (std::vector<std::string>{"appid-thread", "reentrant-hash", "reentrant-maxttl",
                                                                    "client-reentrant", "redisson-like",
                                                                    "redisson-like-retries", "redisson-fenced"}));
  EXPECT_FALSE(is_reentrant("no-such-variant"));
  EXPECT_EQ(variants_where(counts_permits), (std::vector<std::string>{"redisson-semaphore", "redisson-permit-expirable", "semaphore"}));
  EXPECT_EQ(variants_where(counts_down), (std::vector<std::string>{"redisson-latch", "latch"}));
  EXPECT_EQ(public_type_of("latch")->name, "Latch");
  EXPECT_EQ(public_type_of("redisson-latch"), nullptr);
  EXPECT_EQ(variant_row("redisson-latch").reference, "latch");
  EXPECT_EQ(variant_row("redisson-multilock").reference, "redlock");
  EXPECT_EQ(variant_row("redisson-redlock").reference, "redlock");
  EXPECT_EQ(public_type_of("redisson-multilock"), nullptr);
  EXPECT_EQ(variants_where(grants_in_order), (std::vector<std::string>{"redisson-fair", "fair"}));
  EXPECT_EQ(variant_row("redisson-fair").reference, "fair");
  EXPECT_EQ(variant_row("fair").reference, "fair");
}

TEST(VariantTable, ComparisonWorkloadIsPerRow) {
  EXPECT_EQ(variant_row("redlock").comparison.masters, 5);
  EXPECT_TRUE(variant_row("fenced").comparison.fencing_on_writes);
  EXPECT_EQ(variant_row("token-wait").comparison.replicas, 1);
  EXPECT_EQ(variant_row("watchdog").comparison.hold_max_ms, 2500);
  EXPECT_EQ(variant_row("token").comparison.hold_max_ms, 200);
  EXPECT_EQ(variant_row("redisson-semaphore").comparison.permits, 2u);
  EXPECT_EQ(variant_row("token").comparison.permits, 1u);
  EXPECT_EQ(variant_row("latch").comparison.latch_count, 2u);
  EXPECT_EQ(variant_row("latch").comparison.replicas, 1);
}

}  // namespace
}  // namespace lockcheck
