// Lua 5.1 behaviour of EVAL on the embedded Lua 5.4 (issue 16). Every expected value is what
// redis-server 7.0.15 answers for the same script.
#include <gtest/gtest.h>

#include "lockcheck/sha1.hpp"
#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected))

class Lua51 : public ::testing::Test, public MockFixture {
 protected:
  static std::string at(const std::string& body, int line) {
    return " script: " + sha1_hex(body) + ", on @user_script:" + std::to_string(line) + ".";
  }
  void expect_runtime_error(const std::string& body, const std::string& message) {
    EXPECT_REPLY(eval(body), E("ERR user_script:1: " + message + at(body, 1))) << body;
  }
};

struct Case {
  const char* body;
  Reply expected;
};

TEST_F(Lua51, NumbersAreDoublesAndPrintAsFourteenDigits) {
  const Case cases[] = {
      {"return 10/2 .. ''", B("5")},
      {"return 5.0 .. ''", B("5")},
      {"return tostring(2^63 .. '')", B("9.2233720368548e+18")},
      {"return tostring(9223372036854775807 + 1)", B("9.2233720368548e+18")},
      {"return tostring(5 % 0)", B("-nan")},
      {"return (2^53 + 1) .. ''", B("9.007199254741e+15")},
      {"return tostring(0xffffffffffffffff)", B("1.844674407371e+19")},
      {"return (99999999999999 + 1) .. ''", B("1e+14")},
      {"return 10000000 * 10000000 .. ''", B("1e+14")},
      {"return tostring(-7 % 3) .. ' ' .. (7 % -3) .. ' ' .. (5.5 % 2)", B("2 -2 1.5")},
      {"local a = 7 return a / 0 .. ''", B("inf")},
      {"local x = 'a' .. 10 / 4 * 2 .. 'b' .. -3 .. #'xy' .. (1+1) return x", B("a5b-322")},
      {"local t = {n = 6} return 'v' .. t.n / 2 .. ':' .. math.floor(t.n / 4)", B("v3:1")},
      {"local t = {} for i = 1, 3 do t[#t+1] = i / 1 .. '' end return t", A({B("1"), B("2"), B("3")})},
      {"return tostring(math.floor(3.7)) .. tostring(math.sqrt(16)) .. (3 * 1.5 * 2)", B("349")},
      {"return loadstring('return 10/2 .. \"\"')()", B("5")},
      {"local mt = {__concat = function(a, b) return 'cat' end} return setmetatable({}, mt) .. 'x'", B("cat")},
      // % is 5.1's a - floor(a/b)*b: no negative zero, an infinite divisor gives nan.
      {"return tostring(-4 % 2) .. ' ' .. (-4.5 % 1.5) .. ' ' .. (4 % -2) .. ' ' .. tostring(5 % math.huge) .. ' ' .. (-3 % 5)",
       B("0 0 0 -nan 2")},
      {"local a, b = 7, 3 return a * 2 % b .. ':' .. a % b % 2 .. ':' .. '10' % 4", B("2:1:2")},
      {"local mt = {__mod = function(a, b) return 'm' end} return setmetatable({}, mt) % 2", B("m")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
  run({"set", "n", "10"});
  EXPECT_REPLY(eval("return redis.call('incrby', 'n', 5) / 5 .. 'x'"), B("3x"));
}

TEST_F(Lua51, LibrarySurfaceIsLua51s) {
  const Case cases[] = {
      {"return type(table.unpack)", B("nil")},
      {"return type(unpack)", B("function")},
      {"return _VERSION", B("Lua 5.1")},
      {"local r = {} for k in pairs(math) do r[#r+1]=k end table.sort(r) return table.concat(r,' ')",
       B("abs acos asin atan atan2 ceil cos cosh deg exp floor fmod frexp huge ldexp log log10 max min mod modf pi pow "
         "rad random randomseed sin sinh sqrt tan tanh")},
      {"local r = {} for k in pairs(string) do r[#r+1]=k end table.sort(r) return table.concat(r,' ')",
       B("byte char dump find format gfind gmatch gsub len lower match rep reverse sub upper")},
      {"local r = {} for k in pairs(table) do r[#r+1]=k end table.sort(r) return table.concat(r,' ')",
       B("concat foreach foreachi getn insert maxn remove setn sort")},
      {"local r = {} for k in pairs(coroutine) do r[#r+1]=k end table.sort(r) return table.concat(r,' ')",
       B("create resume running status wrap yield")},
      {"return tostring(math.log(8, 2))", B("2.0794415416798")},
      {"return tostring(math.log10(1000))", B("3")},
      {"return tostring(math.fmod(7, 0))", B("-nan")},
      {"return tostring(math.frexp(8))", B("0.5")},
      {"return math.ldexp(1, 3) .. ''", B("8")},
      {"return tostring(coroutine.running())", B("nil")},
      {"return xpcall(function(...) return select('#', ...) end, function(e) return e end, 1, 2)", I(1)},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
}

TEST_F(Lua51, StringFunctionsCoerceAndTruncateAs51) {
  const Case cases[] = {
      {"return string.format('%d', 3.5)", B("3")},
      {"return string.format('%d %x %5.1f %s %s', -3.9, 255.7, 2, 5.0, 10/4)", B("-3 ff   2.0 5 2.5")},
      {"return string.format('%c', 65.9)", B("A")},
      {"return string.rep('a', 3, ',')", B("aaa")},
      {"return table.concat({1, 2.5, 10/2}, ',')", B("1,2.5,5")},
      {"return string.len(10/2)", I(1)},
      {"return string.sub('hello', 2.7, 3.2)", B("el")},
      {"return ('x'):rep(2.9)", B("xx")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
}

TEST_F(Lua51, TonumberIsStrtod) {
  const Case cases[] = {
      {"return tostring(tonumber('inf'))", B("inf")},
      {"return tostring(tonumber('-inf'))", B("-inf")},
      {"return tostring(tonumber('nan'))", B("nan")},
      {"return tostring(tonumber('infinity'))", B("inf")},
      {"return tostring(tonumber('0x10'))", B("16")},
      {"return tostring(tonumber(' 10 '))", B("10")},
      {"return tostring(tonumber('1e1'))", B("10")},
      {"return tostring(tonumber('10', 16))", B("16")},
      {"return tostring(tonumber(' 0x1p4 '))", B("16")},
      {"return tostring(tonumber('1e'))", B("nil")},
      {"return tostring(tonumber(''))", B("nil")},
      {"return tostring(tonumber('5.0')) .. tonumber('1e2')", B("5100")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
}

TEST_F(Lua51, LoadTakesAReaderAndLoadstringText) {
  const std::string load = "return load('return 1')";
  EXPECT_REPLY(eval(load), E("ERR user_script:1: bad argument #1 to 'load' (function expected, got string)" + at(load, 1)));
  EXPECT_REPLY(eval("local done = false return load(function() if done then return nil end done = true return 'return 7' end)()"), I(7));
  EXPECT_REPLY(eval("return {loadstring('return 1 +')}"), A({}));
}

TEST_F(Lua51, RuntimeErrorsUse51Wording) {
  expect_runtime_error("local x; return x + 1", "attempt to perform arithmetic on local 'x' (a nil value)");
  expect_runtime_error("local t = {}; return t.a.b", "attempt to index field 'a' (a nil value)");
  expect_runtime_error("local s = 'a'; return s:nope()", "attempt to call method 'nope' (a nil value)");
  expect_runtime_error("local x; return x .. 'a'", "attempt to concatenate local 'x' (a nil value)");
  expect_runtime_error("local t = {} return t.a .. 'a'", "attempt to concatenate field 'a' (a nil value)");
  expect_runtime_error("local t = {} return t[1] .. 'a'", "attempt to concatenate field '?' (a nil value)");
  expect_runtime_error("local t = {} return t['b'] .. 'a'", "attempt to concatenate field 'b' (a nil value)");
  expect_runtime_error("local u; local function f() return u .. 'a' end return f()",
                       "attempt to concatenate upvalue 'u' (a nil value)");
  expect_runtime_error("return KEYS .. 'a'", "attempt to concatenate global 'KEYS' (a table value)");
  expect_runtime_error("return redis.call('get','nokey') .. 'a'", "attempt to concatenate a boolean value");
  expect_runtime_error("return {} .. 'x'", "attempt to concatenate a table value");
  expect_runtime_error("return 1 + 'abc'", "attempt to perform arithmetic on a string value");
  expect_runtime_error("local x; return x % 2", "attempt to perform arithmetic on local 'x' (a nil value)");
  expect_runtime_error("return 10 % 's'", "attempt to perform arithmetic on a string value");
  EXPECT_REPLY(eval("return {pcall(function() local x; return x.y end)}"),
               A({N(), B("user_script:1: attempt to index local 'x' (a nil value)")}));
}

TEST_F(Lua51, CjsonEncodesAndDecodesAsRedis) {
  const Case cases[] = {
      {"return table.concat(cjson.decode(\"[0.0, -5e3, -1, 0.3e-3, 1023.2, 0e10]\"), \" \")", B("0 -5000 -1 0.0003 1023.2 0")},
      {"local d = cjson.decode('{\"keya\": \"a\", \"keyb\": \"b\"}') return {d.keya, d.keyb}", A({B("a"), B("b")})},
      {"return cjson.encode({1,2,3,'a/b',true,false})", B("[1,2,3,\"a\\/b\",true,false]")},
      {"return cjson.encode({})", B("{}")},
      {"return cjson.encode('x\\n\\1\"')", B("\"x\\n\\u0001\\\"\"")},
      {"return cjson.encode(cjson.decode('{\"a\":[1,2,{\"b\":null}]}'))", B("{\"a\":[1,2,{\"b\":null}]}")},
      {"return tostring(cjson.decode('null') == cjson.null)", B("true")},
      {"return cjson.encode(1e20)", B("1e+20")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
  expect_runtime_error("return cjson.encode({[1]=1,[20]=2})", "Cannot serialise table: excessively sparse array");
  expect_runtime_error("return cjson.decode('[1,2')", "Expected comma or array end but found T_END at character 5");
  expect_runtime_error("return cjson.decode('{1:2}')", "Expected object key string but found T_NUMBER at character 2");
  expect_runtime_error("return cjson.decode('[tru]')", "Expected value but found invalid token at character 2");
  expect_runtime_error("return cjson.encode(0/0)", "Cannot serialise number: must not be NaN or Inf");
  // Settings apply, and stay for later scripts on the node, as in Redis's one Lua state.
  EXPECT_REPLY(eval("cjson.encode_max_depth(1) return {pcall(cjson.encode, {a = {}})}"),
               A({N(), B("Cannot serialise, excessive nesting (2)")}));
  EXPECT_REPLY(eval("return cjson.encode_max_depth()"), I(1));
  EXPECT_REPLY(eval("return cjson.encode_number_precision(3) .. cjson.encode(math.pi) .. cjson.encode_number_precision(14)"),
               B("33.1414"));
  EXPECT_REPLY(eval("cjson.encode_invalid_numbers(true) local s = cjson.encode({1/0, 0/0}) cjson.encode_invalid_numbers(false) return s"),
               B("[inf,nan]"));
}

TEST_F(Lua51, CmsgpackPacksAsRedis) {
  const std::string hex = "local h = '' for i = 1, #e do h = h .. string.format('%02x', string.byte(e, i)) end return h";
  std::string forty_x;
  for (int i = 0; i < 40; ++i) forty_x += "78";
  EXPECT_REPLY(eval("local e = cmsgpack.pack(0.1) " + hex), B("cb3fb999999999999a"));
  EXPECT_REPLY(eval("local e = cmsgpack.pack(-1099511627776) " + hex), B("d3ffffff0000000000"));
  EXPECT_REPLY(eval("local e = cmsgpack.pack(1, -1, 200, -200, 70000, -70000, 5000000000, 1.5, 'abc', true, false, "
                    "{1,2}, {a=1}, string.rep('x', 40)) " + hex),
               B("01ffccc8d1ff38ce00011170d2fffeee90cf000000012a05f200ca3fc00000a3616263c3c292010281a16101d928" + forty_x));
  const Case cases[] = {
      {"return {cmsgpack.unpack(cmsgpack.pack(1, 'a', {1, 2, {3}}, true))}", A({I(1), B("a"), A({I(1), I(2), A({I(3)})}), I(1)})},
      {"local a = {} a[1] = a return #cmsgpack.pack(a)", I(17)},
      {"return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 2)}", A({I(-1), I(3)})},
      {"return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 2)}", A({I(2), I(1), I(2)})},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
  expect_runtime_error("return cmsgpack.unpack('\\217')", "Missing bytes in input.");
  expect_runtime_error("return cmsgpack.unpack('\\193')", "Bad data format in input.");
}

TEST_F(Lua51, StructPacksAsRedis) {
  const std::string hex = "local h = '' for i = 1, #e do h = h .. string.format('%02x', string.byte(e, i)) end return h";
  EXPECT_REPLY(eval("local e = struct.pack('>I4i2bBc3sxd', 258, -2, -1, 255, 'abc', 'zz', 1.5) " + hex),
               B("00000102fffeffff6162637a7a00003ff8000000000000"));
  EXPECT_REPLY(eval("local e = struct.pack('!4<bi', 1, 2) " + hex), B("0100000002000000"));
  const Case cases[] = {
      {"return {struct.unpack('>I4i2bBc3sxd', struct.pack('>I4i2bBc3sxd', 258, -2, -1, 255, 'abc', 'zz', 1.5))}",
       A({I(258), I(-2), I(-1), I(255), B("abc"), B("zz"), I(1), I(24)})},
      {"return struct.size('>I4i2bBc3xd')", I(20)},
      {"return {struct.unpack('bc0', struct.pack('bc0', 3, 'xyz'))}", A({B("xyz"), I(5)})},
      {"return tostring(struct.unpack('<L', struct.pack('<l', -1)))", B("1.844674407371e+19")},
      {"return {struct.unpack('>h', struct.pack('>h', 40000))}", A({I(-25536), I(3)})},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
  expect_runtime_error("return struct.unpack('>I4', 'ab')", "bad argument #2 to 'unpack' (data string too short)");
  expect_runtime_error("return struct.pack('q', 1)", "bad argument #1 to 'pack' (invalid format option 'q')");
  expect_runtime_error("return struct.pack('i40', 1)", "integral size 40 is larger than limit of 32");
  expect_runtime_error("return struct.unpack('s', 'ab')", "unfinished string in data");
}

TEST_F(Lua51, ReadonlyTablesCannotBeTricked) {
  for (const std::string body : {"setmetatable(_G, {})", "rawset(_G, 'x', 1)", "rawset(string, 'x', 1)"}) {
    EXPECT_REPLY(eval(body), E("ERR Attempt to modify a readonly table" + at(body, 1))) << body;
  }
  for (const std::string body : {"local g = getmetatable(_G) g.__index = {}", "cjson.encode = function() end"}) {
    expect_runtime_error(body, "Attempt to modify a readonly table");
  }
}

TEST_F(Lua51, SetrespThreeMakesNilRepliesNil) {
  const Case cases[] = {
      {"redis.setresp(3) return type(redis.call('get','nokey'))", B("nil")},
      {"return type(redis.call('get','nokey'))", B("boolean")},
      {"redis.setresp(2.5) return type(redis.call('get','nokey'))", B("boolean")},
      {"redis.setresp(3) return redis.call('set','a','b')", S("OK")},
      {"redis.setresp('3') return type(redis.call('get','nokey'))", B("nil")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
  const std::string four = "redis.setresp(4) return 1";
  EXPECT_REPLY(eval(four), E("ERR RESP version must be 2 or 3." + at(four, 1)));
}

// Lua 5.4 seeds string hashing per state (clock and addresses), so raw traversal order would change from
// run to run; the mock's pairs is ordered, so one seed replays a simulated run byte for byte.
TEST_F(Lua51, PairsOrderIsTheSameOnEveryNode) {
  const std::string body = "local t = {} for i = 1, 12 do t['k' .. i] = i end t[3] = 'x' t[1] = 'y' t[true] = 1 "
                           "local r = {} for k in pairs(t) do r[#r + 1] = tostring(k) end "
                           "return table.concat(r, ',') .. cjson.encode({b = 1, a = 2})";
  const Reply expected = B("1,3,true,k1,k10,k11,k12,k2,k3,k4,k5,k6,k7,k8,k9{\"a\":2,\"b\":1}");
  EXPECT_REPLY(eval(body), expected);
  for (int i = 0; i < 3; ++i) {
    Node other(NodeOptions{.clock = [this] { return now_ms; }});
    EXPECT_REPLY(other.execute({"EVAL", body, "0"}, session), expected);
  }
}

TEST_F(Lua51, AclCheckCmdKnowsTheCommandTable) {
  EXPECT_REPLY(eval("return redis.acl_check_cmd('set','x','y')"), I(1));
  EXPECT_REPLY(eval("return redis.acl_check_cmd('GET')"), I(1));
  const std::string unknown = "return redis.acl_check_cmd('nope')";
  EXPECT_REPLY(eval(unknown), E("ERR Invalid command passed to redis.acl_check_cmd()" + at(unknown, 1)));
  const std::string none = "return redis.acl_check_cmd()";
  EXPECT_REPLY(eval(none), E("ERR Please specify at least one argument for this redis lib call" + at(none, 1)));
}

TEST_F(Lua51, ShebangIsReadAsRedis70Does) {
  const Case cases[] = {
      {"#!lua\nreturn 1", I(1)},
      {"#!lua flags=\nreturn 1", I(1)},
      {"#!lua  flags=allow-oom   \nreturn 1", I(1)},
      {"#!lua flags=allow-oom,no-cluster\nreturn 2", I(2)},
      {"#!lua flags=no-writes,\nreturn 1", E("ERR Unexpected flag in script shebang: ")},
      {"#!lua name=x\nreturn 1", E("ERR Unknown lua shebang option: name=x")},
      {"#!foo\nreturn 1", E("ERR Unexpected engine in script shebang: #!foo")},
      {"#! lua\nreturn 1", E("ERR Unexpected engine in script shebang: #!")},
      {"#!lua", E("ERR Invalid script shebang")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
  const std::string write = "#!lua flags=no-writes\nreturn redis.call('set','a','b')";
  EXPECT_REPLY(eval(write), E("ERR Write commands are not allowed from read-only scripts." + at(write, 2)));
  EXPECT_REPLY(run({"EVAL_RO", "#!lua\nreturn 1", "0"}), E("ERR Can not execute a script with write flag using *_ro command."));
  EXPECT_REPLY(run({"EVAL_RO", "#!lua flags=no-writes\nreturn 1", "0"}), I(1));
}

TEST_F(Lua51, ShebangFlagsDecideOutOfMemoryBehaviour) {
  Node full(NodeOptions{.clock = [this] { return now_ms; }, .maxmemory_keys = 1, .eviction = EvictionPolicy::noeviction});
  auto eval_on_full = [&](const std::string& body) { return full.execute({"EVAL", body, "0"}, session); };
  full.execute({"SET", "k", "v"}, session);
  const std::string oom = "OOM command not allowed when used memory > 'maxmemory'.";
  EXPECT_REPLY(eval_on_full("#!lua\nreturn 1"), E(oom));
  EXPECT_REPLY(eval_on_full("#!lua flags=allow-oom\nreturn redis.call('set','x','y')"), S("OK"));
  EXPECT_REPLY(eval_on_full("#!lua flags=no-writes\nreturn 5"), I(5));
  const std::string compat = "return redis.call('set','x2','y')";
  EXPECT_REPLY(eval_on_full(compat), E(oom + at(compat, 1)));
  EXPECT_REPLY(eval_on_full("return 3"), I(3));
}

// Issue 24, item 12: each of these passed silently on the mock and differs on redis-server 7.0.15.
TEST_F(Lua51, FormatTakesOnlyStringsAndNumbersForS) {
  expect_runtime_error("return string.format('%s', nil)", "bad argument #2 to 'format' (string expected, got nil)");
  expect_runtime_error("return string.format('%s', true)", "bad argument #2 to 'format' (string expected, got boolean)");
  expect_runtime_error("return string.format('%q', nil)", "bad argument #2 to 'format' (string expected, got nil)");
  expect_runtime_error("return string.format('%s %s', 'a', {})", "bad argument #3 to 'format' (string expected, got table)");
  expect_runtime_error("return string.format('%s')", "bad argument #2 to 'format' (no value)");
  expect_runtime_error("return string.format('%d')", "bad argument #2 to 'format' (no value)");
  EXPECT_REPLY(eval("return string.format('%s %s %q', 1, 2.5, 'x')"), B("1 2.5 \"x\""));
}

TEST_F(Lua51, VarargFunctionsGetArg) {
  const Case cases[] = {
      {"local function f(...) return #arg end return f(1, 2, 3)", I(3)},
      {"local function f(...) return arg.n end return f()", I(0)},
      {"local function f(a, ...) return {a, arg.n, arg[1]} end return f(1, 2)", A({I(1), I(1), I(2)})},
      {"local function f(...) local g = function(...) return ... end return arg.n end return f(7, 8)", I(2)},
      {"local t = {} function t.m(...) return unpack(arg) end return t.m('x', 'y')", B("x")},
      // A body that says `...` itself gets no `arg`: it reads the global, which Redis refuses.
      {"local function f(...) local n = select('#', ...) return arg end return f(1)",
       E("ERR user_script:1: Script attempted to access nonexistent global variable 'arg'" +
         at("local function f(...) local n = select('#', ...) return arg end return f(1)", 1))},
      {"return type(arg)", E("ERR user_script:1: Script attempted to access nonexistent global variable 'arg'" +
                             at("return type(arg)", 1))},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
}

TEST_F(Lua51, TableInsertGrowsToAnyPosition) {
  const Case cases[] = {
      {"local t = {1,2} table.insert(t, 5, 'x') return {t[1], t[2], tostring(t[3]), t[5], #t}",
       A({I(1), I(2), B("nil"), B("x"), I(2)})},
      {"local t = {1,2} table.insert(t, 0, 'x') return {t[0], t[1], t[2], t[3]}", A({B("x")})},
      {"local t = {1,2} table.insert(t, 2.5, 'x') return t", A({I(1), B("x"), I(2)})},
      {"local t = {1,2} table.insert(t, '3', 'x') return t", A({I(1), I(2), B("x")})},
      {"local t = {} table.insert(t, 2^32 + 1, 'x') return t[1]", B("x")},
      {"local t = setmetatable({}, {__newindex = function(t, k, v) rawset(t, k, v .. '!') end}) "
       "table.insert(t, 'a') return t[1]", B("a")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
  expect_runtime_error("local t = {1,2} table.insert(t, 1, 'x', 'y') return t", "wrong number of arguments to 'insert'");
  expect_runtime_error("local t = {1,2} table.insert(t) return t", "wrong number of arguments to 'insert'");
  expect_runtime_error("local t = {1,2} table.insert(t, 'a', 'x') return t",
                       "bad argument #2 to 'insert' (number expected, got string)");
  expect_runtime_error("table.insert(nil, 1) return 1", "bad argument #1 to 'insert' (table expected, got nil)");
  const std::string readonly = "table.insert(string, 1) return 1";
  EXPECT_REPLY(eval(readonly), E("ERR Attempt to modify a readonly table" + at(readonly, 1)));
}

TEST_F(Lua51, MathRandomTruncatesItsBounds) {
  const Case cases[] = {
      {"return math.random(1.5)", I(1)},
      {"return math.random('1')", I(1)},
      {"return math.random(2^32 + 1)", I(1)},
      {"local r = math.random(2.5, 2.9) return r", I(2)},
      {"return type(math.random(3))", B("number")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body), c.expected) << c.body;
  expect_runtime_error("return math.random(0.5)", "bad argument #1 to 'random' (interval is empty)");
  expect_runtime_error("return math.random(3, 2.5)", "bad argument #2 to 'random' (interval is empty)");
  expect_runtime_error("return math.random(0/0)", "bad argument #1 to 'random' (interval is empty)");
  expect_runtime_error("return math.random('a')", "bad argument #1 to 'random' (number expected, got string)");
  expect_runtime_error("return math.random(1, 2, 3)", "wrong number of arguments");
}

TEST_F(Lua51, GlobalsReadThroughG) {
  const Case cases[] = {
      {"return type(_G.redis)", B("table")},
      {"return rawget(_G, 'redis') ~= nil", I(1)},
      {"return rawget(_G, 'KEYS')[1]", B("k")},
      {"return _G._G == _G", I(1)},
      {"return type(rawget(string, 'rep'))", B("function")},
      {"return type(next(_G))", B("string")},
      {"return _G.string.rep('a', 2)", B("aa")},
  };
  for (const Case& c : cases) EXPECT_REPLY(eval(c.body, {"k"}), c.expected) << c.body;
  expect_runtime_error("return rawget(nil, 'x')", "bad argument #1 to 'rawget' (table expected, got nil)");
}

}  // namespace
}  // namespace lockcheck::mock::testing
