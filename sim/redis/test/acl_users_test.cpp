// ACL users as Redis 7.0.15 keeps them: SETUSER's rules and errors, GETUSER, LIST's canonical rules, USERS,
// DELUSER, WHOAMI, AUTH and HELLO AUTH with ACL users (texts checked against redis-server 7.0.15 with redis-cli).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"
#include "redis/acl/sha256.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

class AclUsers : public ::testing::Test, public MockFixture {};

TEST(Sha256, KnownDigests) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("123"), "a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3");
  EXPECT_EQ(sha256_hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST_F(AclUsers, DefaultUserAndCanonicalRuleStrings) {
  EXPECT_REPLY(run({"acl", "list"}), A({B("user default on nopass ~* &* +@all")}));
  EXPECT_REPLY(run({"acl", "whoami"}), B("default"));
  EXPECT_REPLY(run({"acl", "setuser", "bob", "on", ">123", "+@scripting", "+set", "~x*"}), S("OK"));
  EXPECT_REPLY(run({"acl", "users"}), A({B("bob"), B("default")}));
  EXPECT_REPLY(run({"acl", "list"}),
               A({B("user bob on #a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3 ~x* resetchannels "
                    "-@all +@scripting +set"),
                  B("user default on nopass ~* &* +@all")}));
  EXPECT_REPLY(run({"acl", "setuser", "x", "+config|get", "+select|0"}), S("OK"));
  EXPECT_REPLY(run({"acl", "setuser", "y", "(+get ~k*)", "(%W~w*", "+set)", "%R~r", "&ch"}), S("OK"));
  EXPECT_REPLY(run({"acl", "list"}).elements.at(2), B("user x off resetchannels -@all +config|get +select|0"));
  EXPECT_REPLY(run({"acl", "list"}).elements.at(3),
               B("user y off %R~r resetchannels &ch -@all (~k* resetchannels -@all +get) (%W~w* resetchannels -@all "
                 "+set)"));
}

TEST_F(AclUsers, GetuserReplyShape) {
  run({"hello", "3"});  // GETUSER answers a map (an array of pairs in RESP2)
  run({"acl", "setuser", "y", "on", ">123", "~a", "%R~b", "&c*", "+get", "(+set ~s*)"});
  EXPECT_REPLY(run({"acl", "getuser", "y"}),
               Reply::map({B("flags"), Reply::set({B("on")}), B("passwords"),
                           A({B("a665a45920422f9d417e4867efdc4fb8a04a1f3fff1fa07e998e86f7f7a27ae3")}), B("commands"),
                           B("-@all +get"), B("keys"), B("~a %R~b"), B("channels"), B("&c*"), B("selectors"),
                           A({Reply::map({B("commands"), B("-@all +set"), B("keys"), B("~s*"), B("channels"), B("")})})}));
  EXPECT_REPLY(run({"acl", "getuser", "nobody"}), N());
}

TEST_F(AclUsers, SetuserErrorsChangeNothing) {
  EXPECT_REPLY(run({"acl", "setuser", "x", "on", "+bogus"}),
               E("ERR Error in ACL SETUSER modifier '+bogus': Unknown command or category name in ACL"));
  EXPECT_REPLY(run({"acl", "users"}), A({B("default")}));
  EXPECT_REPLY(run({"acl", "setuser", "y", "~a", "allkeys", "~b"}),
               E("ERR Error in ACL SETUSER modifier '~b': Adding a pattern after the * pattern (or the 'allkeys' flag) "
                 "is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns"));
  EXPECT_REPLY(run({"acl", "setuser", "y", "#abc"}),
               E("ERR Error in ACL SETUSER modifier '#abc': The password hash must be exactly 64 characters and "
                 "contain only lowercase hexadecimal characters"));
  EXPECT_REPLY(run({"acl", "setuser", "y", "<nope"}),
               E("ERR Error in ACL SETUSER modifier '<nope': The password you are trying to remove from the user "
                 "does not exist"));
  EXPECT_REPLY(run({"acl", "setuser", "y", "(+get ~k*"}),
               E("ERR Unmatched parenthesis in acl selector starting at '(+get ~k*'."));
  EXPECT_REPLY(run({"acl", "setuser", "y", "+@nosuch"}),
               E("ERR Error in ACL SETUSER modifier '+@nosuch': Unknown command or category name in ACL"));
  EXPECT_REPLY(run({"acl", "setuser", "y", "+config|get|x"}),
               E("ERR Error in ACL SETUSER modifier '+config|get|x': Allowing first-arg of a subcommand is not supported"));
}

TEST_F(AclUsers, AuthAsAnAclUserAndWhoami) {
  run({"acl", "setuser", "bob", "on", ">123", "+@all", "~*"});
  EXPECT_REPLY(run({"auth", "bob", "nope"}), E("WRONGPASS invalid username-password pair or user is disabled."));
  EXPECT_REPLY(run({"auth", "nobody", "123"}), E("WRONGPASS invalid username-password pair or user is disabled."));
  EXPECT_REPLY(run({"auth", "bob", "123"}), S("OK"));
  EXPECT_REPLY(run({"acl", "whoami"}), B("bob"));
  EXPECT_NE(to_string(run({"client", "info"})).find(" user=bob "), std::string::npos);
  run({"acl", "setuser", "bob", "off"});
  Session other{.client_id = 2};
  EXPECT_REPLY(node.execute({"hello", "3", "auth", "bob", "123"}, other),
               E("WRONGPASS invalid username-password pair or user is disabled."));
  EXPECT_REPLY(run({"auth", "pass-for-default"}),
               E("ERR AUTH <password> called without any password configured for the default user. Are you sure "
                 "your configuration is correct?"));
}

// helloCommand applies its options in order: a SETNAME before a failing AUTH, a bad option or a bad name keeps
// its name, and an AUTH before a bad name keeps its user (each case run on redis-server 7.0.15 with redis-cli).
TEST_F(AclUsers, HelloAppliesItsOptionsInOrderUntilOneFails) {
  run({"acl", "setuser", "bob", "on", ">123", "+@all", "~*"});
  EXPECT_REPLY(run({"hello", "2", "setname", "early", "auth", "bob", "nope"}),
               E("WRONGPASS invalid username-password pair or user is disabled."));
  EXPECT_REPLY(run({"client", "getname"}), B("early"));
  EXPECT_REPLY(run({"hello", "2", "setname", "second", "badopt"}), E("ERR Syntax error in HELLO option 'badopt'"));
  EXPECT_REPLY(run({"client", "getname"}), B("second"));
  EXPECT_REPLY(run({"hello", "2", "auth", "bob", "123", "setname", "bad name"}),
               E("ERR Client names cannot contain spaces, newlines or special characters."));
  EXPECT_REPLY(run({"acl", "whoami"}), B("bob"));
  EXPECT_REPLY(run({"client", "getname"}), B("second"));
  run({"acl", "setuser", "default", "resetpass", ">pw"});
  Session fresh{.client_id = 2};
  EXPECT_REPLY(node.execute({"hello", "2", "setname", "n3"}, fresh),
               E("NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO AUTH <user> "
                 "<pass> option can be used to authenticate the client and select the RESP protocol version at the "
                 "same time"));
  EXPECT_REPLY(node.execute({"auth", "pw"}, fresh), S("OK"));
  EXPECT_REPLY(node.execute({"client", "getname"}, fresh), B("n3"));
}

TEST_F(AclUsers, DefaultUserWithAPasswordNeedsAuth) {
  run({"acl", "setuser", "default", "resetpass", ">secret"});
  Session fresh{.client_id = 2};
  EXPECT_REPLY(node.execute({"get", "k"}, fresh), E("NOAUTH Authentication required."));
  EXPECT_REPLY(node.execute({"auth", "secret"}, fresh), S("OK"));
  EXPECT_REPLY(node.execute({"get", "k"}, fresh), N());
}

TEST_F(AclUsers, RequirepassIsTheDefaultUsersPassword) {
  Session guarded{.client_id = 2, .requirepass = "pw"};
  EXPECT_REPLY(node.execute({"get", "k"}, guarded), E("NOAUTH Authentication required."));
  // The fixture's own connection now needs the password too: the default user has it.
  EXPECT_REPLY(run({"get", "k"}), E("NOAUTH Authentication required."));
  EXPECT_REPLY(node.execute({"auth", "default", "pw"}, guarded), S("OK"));
  EXPECT_REPLY(node.execute({"acl", "getuser", "default"}, guarded).elements.at(3),
               A({B("30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4")}));
}

// Found with redis-cli against `lockcheck serve --requirepass pw`: CONFIG SET requirepass changes the default
// user's password for good (a connection's copy of the old one no longer re-applies it).
TEST_F(AclUsers, ConfigSetRequirepassReplacesTheDefaultPassword) {
  Session guarded{.client_id = 2, .requirepass = "pw"};
  EXPECT_REPLY(node.execute({"auth", "pw"}, guarded), S("OK"));
  EXPECT_REPLY(node.execute({"config", "set", "requirepass", "pw2"}, guarded), S("OK"));
  EXPECT_REPLY(node.execute({"acl", "getuser", "default"}, guarded).elements.at(3),
               A({B("93915a0a4bf8f634cb1856494dd4304472ad46b9827f541f76b6761c49cc55b0")}));
  Session fresh{.client_id = 3};
  EXPECT_REPLY(node.execute({"auth", "pw"}, fresh), E("WRONGPASS invalid username-password pair or user is disabled."));
  EXPECT_REPLY(node.execute({"auth", "pw2"}, fresh), S("OK"));
}

TEST_F(AclUsers, DeluserRefusesDefault) {
  run({"acl", "setuser", "a"});
  run({"acl", "setuser", "b"});
  EXPECT_REPLY(run({"acl", "deluser", "a", "default"}), E("ERR The 'default' user cannot be removed"));
  EXPECT_REPLY(run({"acl", "deluser", "a", "b", "c"}), I(2));
  EXPECT_REPLY(run({"acl", "users"}), A({B("default")}));
}

TEST_F(AclUsers, CatGenpassLoadSave) {
  EXPECT_EQ(run({"acl", "cat"}).elements.size(), 21u);
  const Reply scripting = run({"acl", "cat", "scripting"});
  EXPECT_NE(to_string(scripting).find("\"evalsha\""), std::string::npos) << to_string(scripting);
  EXPECT_REPLY(run({"acl", "cat", "nope"}), E("ERR Unknown category 'nope'"));
  EXPECT_EQ(run({"acl", "genpass"}).text.size(), 64u);
  EXPECT_EQ(run({"acl", "genpass", "5"}).text.size(), 2u);
  EXPECT_REPLY(run({"acl", "genpass", "0"}),
               E("ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up "
                 "to 4096"));
  EXPECT_REPLY(run({"acl", "save"}),
               E("ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the "
                 "ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file "
                 "set) in order to store users in the Redis configuration."));
  EXPECT_REPLY(run({"acl", "nope"}), E("ERR unknown subcommand 'nope'. Try ACL HELP."));
}

}  // namespace
}  // namespace lockcheck::mock::testing
