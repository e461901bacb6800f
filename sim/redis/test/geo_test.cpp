// GEOADD, GEOPOS, GEODIST, GEOHASH, GEOSEARCH(STORE) and GEORADIUS(BYMEMBER)(_RO) against replies recorded from
// redis-server 7.0.15 (redis-cli and raw RESP).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class Geo : public ::testing::Test, public MockFixture {
 protected:
  void SetUp() override {
    run({"geoadd", "Sicily", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania", "12.758489",
         "38.788135", "edge1", "17.241510", "38.222625", "edge2"});
  }
};

Reply pos(const char* longitude, const char* latitude) { return A({B(longitude), B(latitude)}); }

TEST_F(Geo, AddKeepsPointsAsGeohashScores) {
  EXPECT_REPLY(run({"zscore", "Sicily", "Palermo"}), B("3479099956230698"));
  EXPECT_REPLY(run({"geoadd", "Sicily", "ch", "xx", "13.4", "38.1", "Palermo", "1", "1", "nobody"}), I(1));
  EXPECT_REPLY(run({"geoadd", "Sicily", "nx", "13.5", "38.1", "Palermo"}), I(0));
  EXPECT_REPLY(run({"zcard", "Sicily"}), I(4));
  EXPECT_REPLY(run({"geoadd", "g", "200", "100", "x"}), E("ERR invalid longitude,latitude pair 200.000000,100.000000"));
  EXPECT_REPLY(run({"geoadd", "g", "nx", "xx", "1", "2", "x"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"geoadd", "g", "1", "2"}), E("ERR wrong number of arguments for 'geoadd' command"));
  EXPECT_REPLY(run({"geoadd", "g", "abc", "2", "x"}), E("ERR value is not a valid float"));
  EXPECT_REPLY(run({"geoadd", "g", "gt", "1", "2", "x"}), E("ERR syntax error"));  // not an option: 4 arguments left
  run({"set", "str", "v"});
  EXPECT_REPLY(run({"geoadd", "str", "1", "2", "x"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_REPLY(run({"type", "Sicily"}), S("zset"));
}

TEST_F(Geo, PositionsDistancesAndHashes) {
  EXPECT_REPLY(run({"geopos", "Sicily", "Palermo", "nope"}),
               A({pos("13.36138933897018433", "38.11555639549629859"), Reply::null_array()}));
  EXPECT_REPLY(run({"geopos", "Sicily", "edge2"}), A({pos("17.24151045083999634", "38.22262555198793876")}));
  EXPECT_REPLY(run({"geopos", "missing", "a"}), A({Reply::null_array()}));
  EXPECT_REPLY(run({"geodist", "Sicily", "Palermo", "Catania"}), B("166274.1516"));
  EXPECT_REPLY(run({"geodist", "Sicily", "Palermo", "Catania", "km"}), B("166.2742"));
  EXPECT_REPLY(run({"geodist", "Sicily", "Palermo", "Catania", "MI"}), B("103.3182"));
  EXPECT_REPLY(run({"geodist", "Sicily", "Palermo", "Catania", "ft"}), B("545518.8700"));
  EXPECT_REPLY(run({"geodist", "Sicily", "Palermo", "nope"}), N());
  EXPECT_REPLY(run({"geodist", "Sicily", "Palermo", "Catania", "parsec"}),
               E("ERR unsupported unit provided. please use M, KM, FT, MI"));
  EXPECT_REPLY(run({"geodist", "Sicily", "Palermo", "Catania", "km", "x"}), E("ERR syntax error"));
  EXPECT_REPLY(run({"geohash", "Sicily", "Palermo", "Catania", "nope"}), A({B("sqc8b49rny0"), B("sqdtr74hyu0"), N()}));
  EXPECT_REPLY(run({"geohash", "Sicily", "edge1", "edge2"}), A({B("sqchdm4mq20"), B("squ32q4yum0")}));
  // The corners of the Mercator square: longitude 180 is clamped, -180 comes back a cell's half-width inside.
  run({"geoadd", "x", "180", "85.05112878", "a", "-180", "-85.05112878", "b"});
  EXPECT_REPLY(run({"geopos", "x", "a", "b"}), A({pos("180", "85.0511287799999991"),
                                                 pos("-179.99999731779098511", "-85.05112751263942528")}));
  EXPECT_REPLY(run({"geohash", "x", "a", "b"}), A({B("bp05b5048p0"), B("00bh0hbj200")}));
}

TEST_F(Geo, SearchesOrderCountAndOptions) {
  // Unsorted: in the order the nine geohash cells are scanned.
  EXPECT_REPLY(run({"georadius", "Sicily", "15", "37", "200", "km"}), A({B("Palermo"), B("Catania")}));
  EXPECT_REPLY(run({"georadius", "Sicily", "15", "37", "200", "km", "WITHDIST"}),
               A({A({B("Palermo"), B("190.4424")}), A({B("Catania"), B("56.4413")})}));
  EXPECT_REPLY(run({"geosearch", "Sicily", "fromlonlat", "15", "37", "byradius", "200", "km", "withcoord", "withdist",
                    "withhash", "asc"}),
               A({A({B("Catania"), B("56.4413"), I(3479447370796909), pos("15.08726745843887329", "37.50266842333162032")}),
                  A({B("Palermo"), B("190.4424"), I(3479099956230698), pos("13.36138933897018433", "38.11555639549629859")})}));
  EXPECT_REPLY(run({"geosearch", "Sicily", "frommember", "Palermo", "byradius", "500", "km", "count", "2", "withdist"}),
               A({A({B("Palermo"), B("0.0000")}), A({B("edge1"), B("91.4007")})}));
  EXPECT_REPLY(run({"geosearch", "Sicily", "fromlonlat", "15", "37", "byradius", "500", "km", "count", "1", "any"}),
               A({B("Palermo")}));
  EXPECT_REPLY(run({"georadius_ro", "Sicily", "15", "37", "0", "km"}), A({}));
  EXPECT_REPLY(run({"geosearch", "missing", "fromlonlat", "15", "37", "byradius", "1", "km"}), A({}));
}

TEST_F(Geo, BoxSearchDescending) {
  EXPECT_REPLY(run({"geosearch", "Sicily", "fromlonlat", "15", "37", "bybox", "400", "400", "km", "desc", "withdist"}),
               A({A({B("edge1"), B("279.7405")}), A({B("edge2"), B("239.7767")}), A({B("Palermo"), B("190.4424")}),
                  A({B("Catania"), B("56.4413")})}));
}

TEST_F(Geo, StoreForms) {
  EXPECT_REPLY(run({"georadiusbymember", "Sicily", "Palermo", "300", "km", "store", "dst"}), I(3));
  EXPECT_REPLY(run({"zrange", "dst", "0", "-1", "withscores"}),
               A({B("Palermo"), B("3479099956230698"), B("edge1"), B("3479273021651468"), B("Catania"), B("3479447370796909")}));
  EXPECT_REPLY(run({"geosearchstore", "dst2", "Sicily", "fromlonlat", "15", "37", "byradius", "500", "km", "storedist",
                    "asc", "count", "3"}),
               I(3));
  EXPECT_REPLY(run({"zrange", "dst2", "0", "-1", "withscores"}),
               A({B("Catania"), B("56.441257870158204"), B("Palermo"), B("190.44242984775784"), B("edge2"),
                  B("239.77674007274729")}));
  // An empty result, or a missing source, deletes the destination.
  EXPECT_REPLY(run({"georadius", "missing", "15", "37", "200", "km", "store", "dst2"}), I(0));
  EXPECT_REPLY(run({"exists", "dst2"}), I(0));
  EXPECT_REPLY(run({"geosearchstore", "dst", "Sicily", "fromlonlat", "0", "0", "byradius", "1", "m"}), I(0));
  EXPECT_REPLY(run({"exists", "dst"}), I(0));
}

TEST_F(Geo, ErrorsInRedisOrder) {
  EXPECT_REPLY(run({"geosearch", "Sicily", "frommember", "nope", "byradius", "200", "km"}),
               E("ERR could not decode requested zset member"));
  EXPECT_REPLY(run({"georadius", "Sicily", "15", "37", "-1", "km"}), E("ERR radius cannot be negative"));
  EXPECT_REPLY(run({"georadius", "Sicily", "15", "37", "1", "parsec"}),
               E("ERR unsupported unit provided. please use M, KM, FT, MI"));
  EXPECT_REPLY(run({"georadius", "Sicily", "15", "37", "x", "km"}), E("ERR need numeric radius"));
  EXPECT_REPLY(run({"geosearch", "Sicily", "fromlonlat", "15", "37", "bybox", "1", "x", "km"}), E("ERR need numeric height"));
  EXPECT_REPLY(run({"geosearch", "Sicily", "fromlonlat", "15", "37", "byradius", "1", "km", "count", "0"}),
               E("ERR COUNT must be > 0"));
  EXPECT_REPLY(run({"geosearch", "Sicily", "fromlonlat", "15", "37", "byradius", "1", "km", "any"}),
               E("ERR the ANY argument requires COUNT argument"));
  EXPECT_REPLY(run({"geosearch", "Sicily", "byradius", "1", "km"}), E("ERR wrong number of arguments for 'geosearch' command"));
  EXPECT_REPLY(run({"geosearch", "Sicily", "byradius", "1", "km", "asc", "desc"}),
               E("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for geosearch"));
  EXPECT_REPLY(run({"geosearch", "Sicily", "fromlonlat", "1", "2", "asc", "desc"}),
               E("ERR exactly one of BYRADIUS and BYBOX can be specified for geosearch"));
  EXPECT_REPLY(run({"georadius", "Sicily", "15", "37", "200", "km", "store", "d", "withdist"}),
               E("ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options"));
  EXPECT_REPLY(run({"geosearchstore", "d", "Sicily", "fromlonlat", "15", "37", "byradius", "200", "km", "withdist"}),
               E("ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options"));
  EXPECT_REPLY(run({"geosearch", "Sicily", "fromlonlat", "15", "37", "byradius", "200", "km", "store", "x"}),
               E("ERR syntax error"));
  EXPECT_REPLY(run({"georadius_ro", "Sicily", "15", "37", "200", "km", "store", "x"}), E("ERR syntax error"));
}

// The Tcl unit/scripting test "Consistent eval error reporting" ends with this: a failed GEOADD in a script counts
// as a failed geoadd call.
TEST_F(Geo, ScriptedGeoaddErrorIsCountedAsGeoadd) {
  run({"config", "resetstat"});
  run({"set", "Sicily", "1"});
  const Reply refused = eval("return redis.call('GEOADD', 'Sicily', '13.361389', '38.115556', 'Palermo')", {"x"});
  EXPECT_TRUE(refused.text.starts_with("WRONGTYPE Operation against a key holding the wrong kind of value")) << refused.text;
  const std::string stats = run({"info", "commandstats"}).text;
  EXPECT_NE(stats.find("cmdstat_geoadd:calls=1,"), std::string::npos) << stats;
  EXPECT_NE(stats.find("failed_calls=1"), std::string::npos) << stats;
}

TEST_F(Geo, Resp3CoordinatesAreDoubles) {
  session.resp = 3;
  const Reply d1 = Reply::double_reply("13.36138933897018433");
  const Reply d2 = Reply::double_reply("38.11555639549629859");
  EXPECT_REPLY(run({"geopos", "Sicily", "Palermo", "nope"}), A({A({d1, d2}), Reply::null_array()}));
  EXPECT_REPLY(run({"geosearch", "Sicily", "frommember", "Palermo", "byradius", "1", "m", "withcoord", "withdist"}),
               A({A({B("Palermo"), B("0.0000"), A({d1, d2})})}));
}

}  // namespace
}  // namespace lockcheck::mock::testing
