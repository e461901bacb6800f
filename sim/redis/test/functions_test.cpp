// Redis 7 functions: FUNCTION LOAD/DELETE/FLUSH/LIST/STATS/KILL, FCALL, FCALL_RO, as redis-server 7.0.15
// answers them (every text checked with redis-cli against a real server).
#include <gtest/gtest.h>

#include "mock_test_support.hpp"

namespace lockcheck::mock::testing {
namespace {

#define EXPECT_REPLY(actual, expected) EXPECT_EQ(to_string(actual), to_string(expected)) << "reply kinds must match too"

const std::string kLibrary =
    "#!lua name=lib1\n"
    "redis.register_function('w', function(keys, args) return redis.call('set', keys[1], args[1]) end)\n"
    "redis.register_function{function_name='r', callback=function(keys, args) return redis.call('get', keys[1]) end,"
    " flags={'no-writes'}, description='reads'}\n"
    "redis.register_function{function_name='rw', callback=function(keys, args) return redis.call('set', keys[1], 'x') "
    "end, flags={'no-writes'}}\n"
    "redis.register_function('e2', function(keys, args) error('boom') end)\n"
    "redis.register_function('reg', function(keys, args) redis.register_function('zz', function() end) end)\n"
    "redis.register_function('ka', function(keys, args) return {#keys, #args, keys[1], args[1]} end)\n";

class Functions : public ::testing::Test, public MockFixture {
 protected:
  Reply load(const std::string& body) { return node.execute({"FUNCTION", "LOAD", "#!lua name=x\n" + body}, session); }
};

TEST_F(Functions, LoadThenCallWithKeysAndArgs) {
  EXPECT_REPLY(run({"function", "load", kLibrary}), B("lib1"));
  EXPECT_REPLY(run({"fcall", "w", "1", "k", "v"}), S("OK"));
  EXPECT_REPLY(run({"FCALL", "W", "1", "k", "v2"}), S("OK"));  // function names ignore case
  EXPECT_REPLY(run({"fcall", "r", "1", "k"}), B("v2"));
  EXPECT_REPLY(run({"fcall_ro", "r", "1", "k"}), B("v2"));
  EXPECT_REPLY(run({"fcall", "ka", "2", "a", "b", "c", "d"}), A({I(2), I(2), B("a"), B("c")}));
}

TEST_F(Functions, FcallErrors) {
  run({"function", "load", kLibrary});
  EXPECT_REPLY(run({"fcall", "nosuch", "0"}), E("ERR Function not found"));
  EXPECT_REPLY(run({"fcall", "w", "x"}), E("ERR Bad number of keys provided"));
  EXPECT_REPLY(run({"fcall", "w", "1.5", "a"}), E("ERR Bad number of keys provided"));
  EXPECT_REPLY(run({"fcall", "w", "3", "a"}), E("ERR Number of keys can't be greater than number of args"));
  EXPECT_REPLY(run({"fcall", "w", "-1"}), E("ERR Number of keys can't be negative"));
  EXPECT_REPLY(run({"fcall", "w"}), E("ERR wrong number of arguments for 'fcall' command"));
  EXPECT_REPLY(run({"fcall_ro", "w", "1", "k", "v"}), E("ERR Can not execute a script with write flag using *_ro command."));
  EXPECT_REPLY(run({"fcall", "rw", "1", "k"}),
               E("ERR Write commands are not allowed from read-only scripts. script: rw, on @user_function:4."));
  EXPECT_REPLY(run({"fcall", "e2", "0"}), E("ERR user_function:5: boom script: e2, on @user_function:5."));
  EXPECT_REPLY(run({"fcall", "reg", "0"}),
               E("ERR user_function:6: attempt to call field 'register_function' (a nil value) script: reg, on "
                 "@user_function:6."));
}

TEST_F(Functions, LoadErrorsAsRedis) {
  EXPECT_REPLY(run({"function", "load", "redis.register_function('f', function() return 1 end)"}),
               E("ERR Missing library metadata"));
  EXPECT_REPLY(run({"function", "load", "#!lua"}), E("ERR Invalid library metadata"));
  EXPECT_REPLY(run({"function", "load", "#!lua name=a-b\nreturn 1"}),
               E("ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one "
                 "character long"));
  EXPECT_REPLY(run({"function", "load", "#!lua name=x foo=bar\nreturn 1"}), E("ERR Invalid metadata value given: foo=bar"));
  EXPECT_REPLY(run({"function", "load", "#!lua name=x name=y\nreturn 1"}),
               E("ERR Invalid metadata value, name argument was given multiple times"));
  EXPECT_REPLY(run({"function", "load", "#!lua2 name=x\nreturn 1"}), E("ERR Engine 'lua2' not found"));
  EXPECT_REPLY(run({"function", "load", "#!lua foo\nreturn 1"}), E("ERR Invalid metadata value given: foo"));
  EXPECT_REPLY(run({"function", "load", "#!lua\nreturn 1"}), E("ERR Library name was not given"));
  EXPECT_REPLY(load("return 1"), E("ERR No functions registered"));
  EXPECT_REPLY(load("redis.register_function('f-1', function() return 1 end)"),
               E("ERR Error registering functions: ERR Library names can only contain letters, numbers, or "
                 "underscores(_) and must be at least one character long"));
  EXPECT_REPLY(load("redis.register_function('g', function() end)\nredis.register_function('g', function() end)"),
               E("ERR Error registering functions: ERR Function already exists in the library"));
  EXPECT_REPLY(load("redis.call('ping')"),
               E("ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global "
                 "variable 'call'"));
  EXPECT_REPLY(load("error('boom')"),
               E("ERR Error registering functions: ERR user_function:2: Script attempted to access nonexistent global "
                 "variable 'error'"));
  EXPECT_REPLY(load("redis.register_function('g', function() end) foo = 1"),
               E("ERR Error registering functions: ERR user_function:2: Attempt to modify a readonly table"));
  EXPECT_REPLY(load("local x = nil + 1"),
               E("ERR Error registering functions: ERR user_function:2: attempt to perform arithmetic on a nil value"));
  EXPECT_REPLY(load("redis.register_function('g')"),
               E("ERR Error registering functions: ERR calling redis.register_function with a single argument is only "
                 "applicable to Lua table (representing named arguments)."));
  EXPECT_REPLY(load("redis.register_function('g', 1, 2)"),
               E("ERR Error registering functions: ERR wrong number of arguments to redis.register_function"));
  EXPECT_REPLY(load("redis.register_function{function_name='g'}"),
               E("ERR Error registering functions: ERR redis.register_function must get a callback argument"));
  EXPECT_REPLY(load("redis.register_function{callback=function() end}"),
               E("ERR Error registering functions: ERR redis.register_function must get a function name argument"));
  EXPECT_REPLY(load("redis.register_function{function_name='g', callback=function() end, flags={'bad'}}"),
               E("ERR Error registering functions: ERR unknown flag given"));
  EXPECT_REPLY(load("redis.register_function{function_name='g', callback=function() end, flags='no-writes'}"),
               E("ERR Error registering functions: ERR flags argument to redis.register_function must be a table "
                 "representing function flags"));
  EXPECT_REPLY(load("redis.register_function{function_name='g', callback=function() end, foo=1}"),
               E("ERR Error registering functions: ERR unknown argument given to redis.register_function"));
  EXPECT_REPLY(load("redis.register_function{function_name='g', callback=1}"),
               E("ERR Error registering functions: ERR callback argument given to redis.register_function must be a "
                 "function"));
  EXPECT_REPLY(load("local x = ("), E("ERR Error compiling function: user_function:2: unexpected symbol near '<eof>'"));
  EXPECT_REPLY(run({"function", "load", "REPLACE2", "x"}), E("ERR Unknown option given: REPLACE2"));
  EXPECT_REPLY(run({"function", "load"}), E("ERR wrong number of arguments for 'function|load' command"));
  EXPECT_REPLY(run({"function", "stats"}),
               A({B("running_script"), N(), B("engines"),
                  A({B("LUA"), A({B("libraries_count"), I(0), B("functions_count"), I(0)})})}));
}

TEST_F(Functions, QuotedLibraryNameAndOutOfMemory) {
  EXPECT_REPLY(run({"function", "load", "#!lua name=\"foo\"\nredis.register_function('foo', function() return 1 end)"}),
               B("foo"));
  EXPECT_REPLY(run({"config", "set", "maxmemory", "1"}), S("OK"));
  EXPECT_REPLY(run({"function", "load", "#!lua name=bar\nredis.register_function('bar', function() return 1 end)"}),
               E("OOM command not allowed when used memory > 'maxmemory'."));
}

TEST_F(Functions, ReplaceDuplicateAndDelete) {
  const std::string v1 = "#!lua name=lib\nredis.register_function('f', function() return 1 end)";
  const std::string v2 = "#!lua name=lib\nredis.register_function('f', function() return 2 end)";
  const std::string other = "#!lua name=other\nredis.register_function('F', function() return 3 end)";
  EXPECT_REPLY(run({"function", "load", v1}), B("lib"));
  EXPECT_REPLY(run({"function", "load", v2}), E("ERR Library 'lib' already exists"));
  EXPECT_REPLY(run({"function", "load", other}), E("ERR Function F already exists"));
  EXPECT_REPLY(run({"function", "load", "replace", v2}), B("lib"));
  EXPECT_REPLY(run({"fcall", "f", "0"}), I(2));
  EXPECT_REPLY(run({"function", "delete", "lib"}), S("OK"));
  EXPECT_REPLY(run({"function", "delete", "lib"}), E("ERR Library not found"));
  EXPECT_REPLY(run({"fcall", "f", "0"}), E("ERR Function not found"));
  EXPECT_REPLY(run({"function", "load", other}), B("other"));
  EXPECT_REPLY(run({"function", "flush", "bad"}), E("ERR FUNCTION FLUSH only supports SYNC|ASYNC option"));
  EXPECT_REPLY(run({"function", "flush", "async", "x"}),
               E("ERR unknown subcommand or wrong number of arguments for 'flush'. Try FUNCTION HELP."));
  EXPECT_REPLY(run({"function", "flush", "sync"}), S("OK"));
  EXPECT_REPLY(run({"fcall", "F", "0"}), E("ERR Function not found"));
}

TEST_F(Functions, ListWithPatternAndCode) {
  const std::string code =
      "#!lua name=mylib\nredis.register_function{function_name='b', callback=function() return 1 end, "
      "flags={'allow-oom', 'NO-WRITES'}, description='d'}\nredis.register_function('a', function() return 1 end)";
  run({"function", "load", code});
  Reply functions = A({A({B("name"), B("a"), B("description"), N(), B("flags"), A({})}),
                       A({B("name"), B("b"), B("description"), B("d"), B("flags"), A({S("no-writes"), S("allow-oom")})})});
  EXPECT_REPLY(run({"function", "list"}), A({A({B("library_name"), B("mylib"), B("engine"), B("LUA"), B("functions"), functions})}));
  EXPECT_REPLY(run({"function", "list", "withcode", "libraryname", "my*"}),
               A({A({B("library_name"), B("mylib"), B("engine"), B("LUA"), B("functions"), functions,
                     B("library_code"), B(code)})}));
  EXPECT_REPLY(run({"function", "list", "libraryname", "nope*"}), A({}));
  EXPECT_REPLY(run({"function", "list", "libraryname"}), E("ERR library name argument was not given"));
  EXPECT_REPLY(run({"function", "list", "foo"}), E("ERR Unknown argument foo"));
  EXPECT_REPLY(run({"function", "list", "withcode", "withcode"}), E("ERR Unknown argument withcode"));
  EXPECT_REPLY(run({"function", "kill"}), E("NOTBUSY No scripts in execution right now."));
  EXPECT_REPLY(run({"script", "kill"}), E("NOTBUSY No scripts in execution right now."));
  EXPECT_REPLY(run({"function", "foo"}), E("ERR unknown subcommand 'foo'. Try FUNCTION HELP."));
  // Redis's RDB fragment: the FUNCTION2 opcode first (function_dump_test.cpp has the rest).
  EXPECT_TRUE(run({"function", "dump"}).text.starts_with("\xf5"));
}

TEST_F(Functions, LoadScopeSeesOnlyRegisterLogAndVersions) {
  EXPECT_REPLY(load("local x = redis.LOG_WARNING .. redis.REDIS_VERSION_NUM\n"
                    "redis.log(redis.LOG_NOTICE, 'loading')\n"
                    "redis.register_function('f', function() return x end)"),
               B("x"));
  EXPECT_REPLY(run({"fcall", "f", "0"}), B("3458767"));
  // Inside a call the whole sandbox is back, but KEYS/ARGV are EVAL's, not a function's.
  EXPECT_REPLY(run({"function", "load", "#!lua name=y\nredis.register_function('g', function(k, a) "
                                        "return string.rep(a[1], 2) end)\n"
                                        "redis.register_function('h', function() return KEYS end)"}),
               B("y"));
  EXPECT_REPLY(run({"fcall", "g", "0", "ab"}), B("abab"));
  EXPECT_REPLY(run({"fcall", "h", "0"}),
               E("ERR user_function:3: Script attempted to access nonexistent global variable 'KEYS' script: h, on "
                 "@user_function:3."));
}

TEST_F(Functions, AllowOomAndNoWritesFlagsAsShebangScripts) {
  run({"function", "load", "#!lua name=m\nredis.register_function('w', function() return 1 end)\n"
                           "redis.register_function{function_name='o', callback=function() return 2 end, flags={'allow-oom'}}\n"
                           "redis.register_function{function_name='r', callback=function() return 3 end, flags={'no-writes'}}"});
  node.set_maxmemory_keys(1, EvictionPolicy::noeviction);
  run({"set", "full", "1"});
  EXPECT_REPLY(run({"fcall", "w", "0"}), E("OOM command not allowed when used memory > 'maxmemory'."));
  EXPECT_REPLY(run({"fcall", "o", "0"}), I(2));
  EXPECT_REPLY(run({"fcall", "r", "0"}), I(3));
}

// Functions are part of a node's data (RDB and replication stream in Redis): a snapshot carries them and a
// restore brings them back; a restore without them (restart without persistence) loses them.
TEST_F(Functions, SnapshotCarriesLibraries) {
  run({"function", "load", "#!lua name=lib\nredis.register_function('f', function() return 7 end)"});
  Dataset saved = node.snapshot();
  run({"function", "flush"});
  node.restore(saved);
  EXPECT_REPLY(run({"fcall", "f", "0"}), I(7));
  node.restore({});
  EXPECT_REPLY(run({"fcall", "f", "0"}), E("ERR Function not found"));
}

}  // namespace
}  // namespace lockcheck::mock::testing
