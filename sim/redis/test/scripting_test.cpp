// Hand-written edge cases for EVAL under Redis 7.0's Lua rules (expected replies from redis-server 7.0.15
// and research/redis-lua-semantics.md).
#include <gtest/gtest.h>

#include "lockcheck/sha1.hpp"
#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected))

class Scripting : public ::testing::Test, public MockFixture {
 protected:
  // Redis's suffix for an error raised out of a script.
  static std::string at(const std::string& body, int line) {
    return " script: " + sha1_hex(body) + ", on @user_script:" + std::to_string(line) + ".";
  }
};

TEST_F(Scripting, LuaToRespConversion) {
  struct Case {
    const char* body;
    Reply expected;
  };
  const Case cases[] = {
      {"return 3.7", I(3)},
      {"return -3.7", I(-3)},
      {"return -0.5", I(0)},
      {"return 0/0", I(INT64_MIN)},
      {"return 1/0", I(INT64_MIN)},
      {"return -1/0", I(INT64_MIN)},
      {"return 2^63", I(INT64_MIN)},
      {"return 9223372036854775807", I(INT64_MIN)},  // 5.1 holds it as a double: out of range
      {"return 9007199254740993", I(9007199254740992)},
      {"return true", I(1)},
      {"return false", N()},
      {"return nil", N()},
      {"return", N()},
      {"return 'x'", B("x")},
      {"return {1,nil,3}", A({I(1)})},
      {"return {nil,2}", A({})},
      {"return {1,false,3}", A({I(1), N(), I(3)})},
      {"return {a=1}", A({})},
      {"return {ok=5}", A({})},
      {"return {ok='x',err='y'}", E("y")},
      {"return {1,2,ok='s'}", S("s")},
      {"return {1,{2,{ok='deep'}}}", A({I(1), A({I(2), S("deep")})})},
      {"return {err='My err'}", E("My err")},
      {"return redis.status_reply('a\\r\\nb')", S("a  b")},
      {"return redis.error_reply('x')", E("ERR x")},
      {"return redis.error_reply('My Error')", E("My Error")},
      {"return redis.error_reply()", E("ERR wrong number or type of arguments")},
      {"return {double=3.5}", B("3.5")},
      {"return redis.sha1hex('')", B("da39a3ee5e6b4b0d3255bfef95601890afd80709")},
      {"return redis.sha1hex(1)", B("356a192b7913b04c54574d18c28d46e6395428ab")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
}

TEST_F(Scripting, RespToLuaConversion) {
  EXPECT_REPLY(eval("return type(redis.call('get', 'missing'))"), B("boolean"));
  EXPECT_REPLY(eval("return redis.call('get', 'missing') == false"), I(1));
  EXPECT_REPLY(eval("return type(redis.call('set', 'k', 'v'))"), B("table"));
  EXPECT_REPLY(eval("return redis.call('type', 'k').ok"), B("string"));
  EXPECT_REPLY(eval("return redis.call('set', 'k', 'v')"), S("OK"));
  EXPECT_REPLY(eval("return redis.call('incr', 'n') .. ''"), B("1"));  // 5.1 prints "1", not "1.0"
  EXPECT_REPLY(eval("redis.call('hset', 'h', 'a', '1') return redis.call('hmget', 'h', 'a', 'b')"), A({B("1"), N()}));
  EXPECT_REPLY(eval("return type(redis.call('hmget', 'h', 'a', 'b')[2])"), B("boolean"));
}

TEST_F(Scripting, NumbersSentToRedisUsePercent17g) {
  EXPECT_REPLY(eval("redis.call('set', 'k', 3.0) return redis.call('get', 'k')"), B("3"));
  EXPECT_REPLY(eval("redis.call('set', 'k', 0.1) return redis.call('get', 'k')"), B("0.10000000000000001"));
  EXPECT_REPLY(eval("redis.call('set', 'k', 1e20) return redis.call('get', 'k')"), B("1e+20"));
  EXPECT_REPLY(eval("redis.call('set', 'k', -0.0) return redis.call('get', 'k')"), B("-0"));
  EXPECT_REPLY(eval("redis.call('set', 'k', 10/2) return redis.call('get', 'k')"), B("5"));
  EXPECT_REPLY(eval("redis.call('set', 'k', 'v') return redis.call('pexpire', 'k', ARGV[1] * 1000)", {}, {"5"}), I(1));
  EXPECT_REPLY(run({"pttl", "k"}), I(5000));
  EXPECT_REPLY(eval("return redis.call('incrby', 'n', 2.5)"),
               E("ERR value is not an integer or out of range" + at("return redis.call('incrby', 'n', 2.5)", 1)));
}

TEST_F(Scripting, Lua51Tostring) {
  EXPECT_REPLY(eval("return tostring(3.0)"), B("3"));
  EXPECT_REPLY(eval("return tostring(10/2)"), B("5"));
  EXPECT_REPLY(eval("return tostring(2^53)"), B("9.007199254741e+15"));
  EXPECT_REPLY(eval("return tostring(123456789012345)"), B("1.2345678901234e+14"));
  EXPECT_REPLY(eval("return tostring(1e15)"), B("1e+15"));
  EXPECT_REPLY(eval("return tostring(1700000000123)"), B("1700000000123"));
}

TEST_F(Scripting, ErrorsCarryRedisSuffix) {
  run({"hset", "hh", "a", "1"});
  const std::string incr = "return redis.call('incr','hh')";
  EXPECT_REPLY(eval(incr), E("WRONGTYPE Operation against a key holding the wrong kind of value" + at(incr, 1)));
  EXPECT_REPLY(eval("return redis.pcall('incr','hh')"), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_REPLY(eval("local ok, e = pcall(redis.call,'incr','hh'); return type(e)"), B("string"));
  EXPECT_REPLY(eval("return {pcall(redis.call,'incr','hh')}"),
               A({N(), B("WRONGTYPE Operation against a key holding the wrong kind of value")}));
  EXPECT_REPLY(eval("error({err='X y'})"), E("X y" + at("error({err='X y'})", 1)));
  EXPECT_REPLY(eval("error('boom')"), E("ERR user_script:1: boom" + at("error('boom')", 1)));
  EXPECT_REPLY(eval("error()"), E("ERR nil" + at("error()", 1)));
  EXPECT_REPLY(eval("error(5)"), E("ERR user_script:1: 5" + at("error(5)", 1)));
  EXPECT_REPLY(eval("\n\nlocal t = {}\nt.x = function() error('in') end\nt.x()"),
               E("ERR user_script:4: in" + at("\n\nlocal t = {}\nt.x = function() error('in') end\nt.x()", 4)));
  EXPECT_REPLY(eval("return 1 +"), E("ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'"));
  const std::string nope = "return redis.call('nope')";
  EXPECT_REPLY(eval(nope), E("ERR Unknown Redis command called from script" + at(nope, 1)));
  EXPECT_REPLY(eval("return redis.pcall('nope')"), E("ERR Unknown Redis command called from script"));
  const std::string arity = "return redis.call('get')";
  EXPECT_REPLY(eval(arity), E("ERR Wrong number of args calling Redis command from script" + at(arity, 1)));
  const std::string none = "return redis.call()";
  EXPECT_REPLY(eval(none), E("ERR Please specify at least one argument for this redis lib call" + at(none, 1)));
  const std::string table = "return redis.call('get',{})";
  EXPECT_REPLY(eval(table), E("ERR Lua redis lib command arguments must be strings or integers" + at(table, 1)));
  const std::string nested = "return redis.call('eval','return 1', 0)";
  EXPECT_REPLY(eval(nested), E("ERR This Redis command is not allowed from script" + at(nested, 1)));
  const std::string sha = "return redis.sha1hex()";
  EXPECT_REPLY(eval(sha), E("ERR wrong number of arguments" + at(sha, 1)));
}

TEST_F(Scripting, WritesBeforeAFailingCallAreKept) {
  const std::string body = "redis.call('set', KEYS[1], 'kept') redis.call('incr', KEYS[2])";
  run({"hset", "h", "a", "1"});
  EXPECT_TRUE(eval(body, {"k", "h"}).is_error());
  EXPECT_REPLY(run({"get", "k"}), B("kept"));
}

TEST_F(Scripting, Sandbox) {
  EXPECT_REPLY(eval("x=1"), E("ERR user_script:1: Attempt to modify a readonly table" + at("x=1", 1)));
  EXPECT_REPLY(eval("function f() end"), E("ERR user_script:1: Attempt to modify a readonly table" + at("function f() end", 1)));
  EXPECT_REPLY(eval("KEYS = {}"), E("ERR user_script:1: Attempt to modify a readonly table" + at("KEYS = {}", 1)));
  EXPECT_REPLY(eval("string.x=1"), E("ERR user_script:1: Attempt to modify a readonly table" + at("string.x=1", 1)));
  EXPECT_REPLY(eval("_G.x=1"), E("ERR user_script:1: Attempt to modify a readonly table" + at("_G.x=1", 1)));
  EXPECT_TRUE(eval("rawset(_G, 'x', 1)").is_error());
  EXPECT_REPLY(eval("return y"), E("ERR user_script:1: Script attempted to access nonexistent global variable 'y'" + at("return y", 1)));
  for (const char* name : {"os", "io", "require", "loadfile", "dofile", "print", "debug", "package"}) {
    std::string body = std::string("return ") + name;
    EXPECT_REPLY(eval(body), E(std::string("ERR user_script:1: Script attempted to access nonexistent global variable '") +
                               name + "'" + at(body, 1)));
  }
  EXPECT_REPLY(eval("local x = 1; local function f() return x + 1 end; return f()"), I(2));
  EXPECT_REPLY(eval("return unpack({1, 2})"), I(1));
  EXPECT_REPLY(eval("return loadstring('return 7')()"), I(7));
  EXPECT_REPLY(eval("return bit.tohex(255)"), B("000000ff"));
  EXPECT_REPLY(eval("return bit.band(-1, 0xff)"), I(255));
  EXPECT_REPLY(eval("return bit.lshift(1, 31)"), I(INT32_MIN));
  EXPECT_REPLY(eval("return math.max(5, '7')"), I(7));
  EXPECT_REPLY(eval("return {KEYS[1], ARGV[1], #KEYS, #ARGV, KEYS[2]}", {"k"}, {"a", "b"}), A({B("k"), B("a"), I(1), I(2)}));
}

TEST_F(Scripting, Lua54OnlySyntaxIsRejected) {
  struct Case {
    const char* body;
    const char* construct;
  };
  const Case cases[] = {
      {"return 7 // 2", "'//'"},
      {"return 1 & 3", "'&'"},
      {"return 1 | 2", "'|'"},
      {"return ~1", "'~'"},
      {"return 1 << 2", "'<<'"},
      {"return 4 >> 1", "'>>'"},
      {"goto done ::done::", "'goto'"},
      {"do end ::top::", "'::name::'"},
      {"local x <const> = 1 return x", "'<const>'"},
      {"local f <close> = nil", "'<close>'"},
      {"return '\\x41'", "'\\x'"},
  };
  for (const Case& c : cases) {
    Reply reply = eval(c.body);
    ASSERT_TRUE(reply.is_error()) << c.body;
    EXPECT_TRUE(reply.text.starts_with("ERR Error compiling script (new function): user_script:1: ")) << reply.text;
    EXPECT_NE(reply.text.find(c.construct), std::string::npos) << reply.text;
    EXPECT_NE(reply.text.find("Lua 5.1"), std::string::npos) << reply.text;
  }
  // Not fooled by strings, comments or 5.1 operators.
  EXPECT_REPLY(eval("return 'a // b & c | d ~ e << >> goto ::x::'"), B("a // b & c | d ~ e << >> goto ::x::"));
  EXPECT_REPLY(eval("-- 7 // 2 goto\nreturn 1 ~= 2"), I(1));
  EXPECT_REPLY(eval("--[[ 1 & 2\n ::x:: ]] return [==[ a // b ]==]"), B(" a // b "));
  EXPECT_REPLY(eval("local t = {} t.a = 1 return #t + t.a .. ''"), B("1"));
  Reply load = run({"script", "load", "return 1 // 2"});
  EXPECT_TRUE(load.is_error());
}

TEST_F(Scripting, TimeIsFrozenForTheWholeScript) {
  // The clock advances 10 ms per reading; a script must see a single reading.
  node.set_clock([this] { return now_ms += 10; });
  run({"set", "k", "v", "px", "5"});
  Reply reply = eval(
      "local a = redis.call('time') "
      "for i = 1, 50 do redis.call('pttl', KEYS[1]) end "
      "local b = redis.call('time') "
      "return {a[2] == b[2] and 1 or 0, redis.call('exists', KEYS[1])}",
      {"k"});
  EXPECT_REPLY(reply, A({I(1), I(0)}));  // the key expired before the script started
  run({"set", "k2", "v", "px", "15"});
  EXPECT_REPLY(eval("local n = 0 for i = 1, 100 do n = n + redis.call('exists', KEYS[1]) end return n", {"k2"}), I(100));
}

TEST_F(Scripting, ScriptCacheAndEvalsha) {
  const std::string body = "return ARGV[1]";
  Reply sha = run({"script", "load", body});
  ASSERT_EQ(sha.kind, Reply::Kind::bulk);
  EXPECT_EQ(sha.text, sha1_hex(body));
  EXPECT_REPLY(run({"evalsha", sha.text, "0", "hi"}), B("hi"));
  std::string upper = sha.text;
  for (char& c : upper) c = static_cast<char>(std::toupper(c));
  EXPECT_REPLY(run({"evalsha", upper, "0", "hi"}), B("hi"));
  EXPECT_REPLY(run({"script", "exists", sha.text, "ffff"}), A({I(1), I(0)}));
  EXPECT_REPLY(run({"script", "flush"}), S("OK"));
  EXPECT_REPLY(run({"evalsha", sha.text, "0"}), E("NOSCRIPT No matching script. Please use EVAL."));
  EXPECT_REPLY(run({"eval", body, "2", "a"}), E("ERR Number of keys can't be greater than number of args"));
  EXPECT_REPLY(run({"eval", body, "-1"}), E("ERR Number of keys can't be negative"));
  EXPECT_REPLY(run({"eval", body, "x"}), E("ERR value is not an integer or out of range"));
}

TEST_F(Scripting, ReadOnlyScripts) {
  EXPECT_REPLY(run({"eval_ro", "return redis.call('set', 'k', 'v')", "0"}),
               E("ERR Write commands are not allowed from read-only scripts." + at("return redis.call('set', 'k', 'v')", 1)));
  const std::string shebang = "#!lua flags=no-writes\nreturn redis.call('get', 'k')";
  EXPECT_REPLY(eval(shebang), N());
}

TEST_F(Scripting, RunawayScriptsBecomeErrors) {
  Node small{NodeOptions{.clock = [] { return 0; }, .script_instruction_limit = 1'000'000}};
  Session session{.client_id = 1};
  Reply loop = small.execute({"eval", "while true do end", "0"}, session);
  ASSERT_TRUE(loop.is_error());
  EXPECT_TRUE(loop.text.starts_with("BUSY ")) << loop.text;
  Reply sneaky = small.execute({"eval", "while true do pcall(function() while true do end end) end", "0"}, session);
  EXPECT_TRUE(sneaky.is_error()) << to_string(sneaky);
  Reply memory = small.execute({"eval", "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1000) .. i end", "0"}, session);
  EXPECT_TRUE(memory.is_error()) << to_string(memory);
  // The state is still usable afterwards.
  EXPECT_REPLY(small.execute({"eval", "return 1", "0"}, session), I(1));
}

TEST_F(Scripting, LockScriptsBehave) {
  const std::string release = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
  run({"set", "lock", "t1", "px", "30000"});
  EXPECT_REPLY(eval(release, {"lock"}, {"t2"}), I(0));
  EXPECT_REPLY(eval(release, {"lock"}, {"t1"}), I(1));
  EXPECT_REPLY(eval(release, {"lock"}, {"t1"}), I(0));
}

}  // namespace
}  // namespace lockcheck::mock::testing
