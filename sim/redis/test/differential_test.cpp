// Differential test: RapidCheck generates sequences of commands and scripts over a small key and value
// space; each runs on the mock and on a private redis-server; every reply must be identical (kind and
// value). A failure names the first differing command; RapidCheck shrinks the sequence.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

#include "hiredis_client.hpp"
#include "lockcheck/sha1.hpp"
#include "redis/node.hpp"
#include "redis/real_clock.hpp"
#include "redis_server.hpp"

namespace lockcheck::mock::testing {

using lockcheck::testing::HiredisClient;
namespace {

struct ScriptSpec {
  std::string body;
  int numkeys;
  bool time_tolerant;  // its integer reply is a TTL that depends on the exact millisecond
};

const char* const kReentrant = R"lua(
-- Reentrant hash lock (Redisson style): KEYS[1] lock, ARGV[1] TTL ms, ARGV[2] owner.
if redis.call('exists', KEYS[1]) == 0 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])
)lua";

std::vector<ScriptSpec> all_scripts() {
  std::vector<ScriptSpec> scripts;
  // Every lock script in lib/scripts, read from the source tree, with as many keys as it reads (KEYS[n]).
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(LOCKCHECK_SCRIPTS_DIR)) {
    if (entry.path().extension() == ".lua") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file);
    std::stringstream body;
    body << in.rdbuf();
    const std::string text = body.str();
    int numkeys = 1;
    const std::regex key_index(R"(KEYS\[(\d+)\])");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), key_index); it != std::sregex_iterator(); ++it) {
      numkeys = std::max(numkeys, std::stoi((*it)[1]));
    }
    scripts.push_back({text, numkeys, true});
  }
  scripts.push_back({kReentrant, 1, true});
  // Conversion and error edge cases.
  for (const char* body : {
           "return redis.call('get', KEYS[1])",
           "return redis.pcall('incr', KEYS[1])",
           "return redis.call('incr', KEYS[1])",
           "return type(redis.call('get', KEYS[1]))",
           "return redis.call('type', KEYS[1]).ok",
           "return redis.call('set', KEYS[1], ARGV[1])",
           "return redis.call('hgetall', KEYS[1])",
           "return redis.call('lrange', KEYS[1], 0, -1)",
           "return {redis.call('exists', KEYS[1]), redis.call('ttl', KEYS[1])}",
           "return tonumber(ARGV[1])",
           "return {tostring(tonumber(ARGV[1]))}",
           "redis.call('set', KEYS[1], tonumber(ARGV[1]) or 0) return redis.call('get', KEYS[1])",
           "return redis.call('pexpire', KEYS[1], tonumber(ARGV[1]) or 100000)",
           "return redis.call('hincrby', KEYS[1], 'f', ARGV[1] or '1')",
           "return #redis.call('hgetall', KEYS[1])",
           "return redis.call('zrange', KEYS[1], 0, -1, 'withscores')",
           "return redis.sha1hex(ARGV[1] or '')",
           "return string.format('%s-%s', KEYS[1], ARGV[1] or 'none')",
           "return pcall(redis.call, 'incr', KEYS[1])",
           "local ok, e = pcall(redis.call, 'incr', KEYS[1]) return {tostring(ok), e}",
           "return {KEYS[1], ARGV[1], #KEYS, #ARGV}",
           "return {1, nil, 3}",
           "return {1, false, 3}",
           "return {nil, 2}",
           "return {a = 1}",
           "return {ok = 5}",
           "return {1, 2, ok = 's'}",
           "return {1, {2, {3, {ok = 'deep'}}}}",
           "return 3.7",
           "return -3.7",
           "return -0.5",
           "return 0/0",
           "return 1/0",
           "return 2^63",
           "return 9007199254740993",
           "return true",
           "return false",
           "return",
           "return {ok = 'x', err = 'y'}",
           "return redis.status_reply('fine')",
           "return redis.error_reply('My Error')",
           "return redis.error_reply('x')",
           "return {double = 3.5}",
           "return tostring(3.0)",
           "return tostring(2^53)",
           "return tostring(123456789012345)",
           "redis.call('set', KEYS[1], 0.1) return redis.call('get', KEYS[1])",
           "redis.call('set', KEYS[1], 10/2) return redis.call('get', KEYS[1])",
           "return redis.call('incr', KEYS[1]) .. ''",
           "return math.floor(3.7)",
           "return math.max(1, 2.5)",
           "return math.max(1, ARGV[1])",
           "return math.min(ARGV[1], 2.5, 7)",
           "return math.max(redis.call('pttl', KEYS[1]), tonumber(ARGV[1]))",
           "return math.max(1, nil)",
           "return math.min()",
           "x = 1",
           "return undefined_var",
           "error('boom')",
           "error({err = 'X y'})",
           "return redis.call('nope')",
           "return redis.call('get')",
           "return redis.call()",
           "return redis.call('get', {})",
           "return 1 +",
       }) {
    scripts.push_back({body, 1, false});
  }
  return scripts;
}

const std::vector<ScriptSpec>& scripts() {
  static const std::vector<ScriptSpec> list = all_scripts();
  return list;
}

struct Step {
  Command command;
  bool time_tolerant = false;
};

std::string show(const Command& command) {
  std::string out;
  for (const std::string& arg : command) out += (out.empty() ? "" : " ") + ("\"" + arg + "\"");
  return out;
}

// How RapidCheck prints a counterexample.
[[maybe_unused]] void showValue(const Step& step, std::ostream& os) { os << show(step.command); }

rc::Gen<std::string> key() { return rc::gen::element<std::string>("k1", "k2", "h1", "l1", "z1"); }
rc::Gen<std::string> value() {
  return rc::gen::element<std::string>("a", "b", "1", "-1", "0", "10", "9223372036854775807", "-9223372036854775808",
                                       "x y", "1.5", "", "170000");
}
// Relative TTLs from different sources never coincide (GT/LT would then compare equal deadlines, and the
// outcome would depend on whether the two servers ran both commands in the same millisecond).
rc::Gen<std::string> ttl_ms() { return rc::gen::element<std::string>("100000", "200000", "0", "-5", "abc", "1.5"); }
// Script arguments double as TTLs in ms, so no small positive numbers: a 1 ms TTL would expire between
// two commands on one server and not on the other.
rc::Gen<std::string> script_arg() {
  return rc::gen::element<std::string>("a", "b", "0", "-1", "-5", "150000", "250000", "x y", "1.5", "", "abc",
                                       "9223372036854775807");
}
rc::Gen<std::string> ttl_s() { return rc::gen::element<std::string>("130", "210", "0", "-1"); }

// A command whose name is drawn too (EXPIRETIME or PEXPIRETIME, ...).
rc::Gen<Command> plain_named(std::initializer_list<rc::Gen<std::string>> parts, rc::Gen<std::string> name) {
  std::vector<rc::Gen<std::string>> gens(parts);
  return rc::gen::exec([gens, name] {
    Command command{*name};
    for (const auto& gen : gens) command.push_back(*gen);
    return command;
  });
}

rc::Gen<Command> plain(std::initializer_list<rc::Gen<std::string>> parts, std::string name) {
  return plain_named(parts, rc::gen::just(std::move(name)));
}

rc::Gen<Command> set_command() {
  return rc::gen::exec([] {
    Command command{"SET", *key(), *value()};
    using Option = std::vector<std::string>;
    const std::vector<Option> choices{{"NX"}, {"XX"}, {"GET"}, {"KEEPTTL"}, {"PX", "110000"}, {"EX", "120"}, {"PX", "0"},
                                      {"EX", "abc"}, {"PXAT", "4102444800000"}, {"EXAT", "1"}, {"px"}};
    auto options = *rc::gen::container<std::vector<Option>>(rc::gen::elementOf(choices));
    if (options.size() > 3) options.resize(3);
    for (const auto& option : options) command.insert(command.end(), option.begin(), option.end());
    return command;
  });
}

rc::Gen<Command> expire_command() {
  return rc::gen::exec([] {
    auto flags = *rc::gen::container<std::vector<std::string>>(rc::gen::element<std::string>("NX", "XX", "GT", "LT", "xx"));
    if (flags.size() > 2) flags.resize(2);
    bool compares = std::any_of(flags.begin(), flags.end(), [](const std::string& f) { return f == "GT" || f == "LT"; });
    bool seconds = *rc::gen::arbitrary<bool>();
    Command command;
    if (compares) {
      // GT/LT compare deadlines: use absolute ones, or equal relative TTLs would compare differently on two
      // servers that ran the commands in different milliseconds.
      command = {seconds ? "EXPIREAT" : "PEXPIREAT", *key(),
                 seconds ? *rc::gen::element<std::string>("4102444800", "4102445000", "1")
                         : *rc::gen::element<std::string>("4102444800000", "4102444900000", "1000")};
    } else {
      command = {seconds ? "EXPIRE" : "PEXPIRE", *key(), seconds ? *ttl_s() : *ttl_ms()};
    }
    command.insert(command.end(), flags.begin(), flags.end());
    return command;
  });
}

rc::Gen<Step> script_step() {
  return rc::gen::exec([] {
    std::size_t index = *rc::gen::inRange<std::size_t>(0, scripts().size());
    const ScriptSpec& script = scripts()[index];
    int mode = *rc::gen::inRange(0, 3);  // 0 EVAL, 1 SCRIPT LOAD, 2 EVALSHA (NOSCRIPT unless loaded)
    if (mode == 1) return Step{{"SCRIPT", "LOAD", script.body}, false};
    Command command{mode == 0 ? "EVAL" : "EVALSHA", mode == 0 ? script.body : sha1_hex(script.body),
                    std::to_string(script.numkeys)};
    for (int i = 0; i < script.numkeys; ++i) command.push_back(*key());
    auto argv = *rc::gen::container<std::vector<std::string>>(script_arg());
    if (argv.size() > 3) argv.resize(3);
    command.insert(command.end(), argv.begin(), argv.end());
    return Step{command, script.time_tolerant};
  });
}

rc::Gen<Step> step() {
  auto as_step = [](rc::Gen<Command> gen) { return rc::gen::map(gen, [](Command c) { return Step{std::move(c), false}; }); };
  auto v = value();
  auto k = key();
  return rc::gen::weightedOneOf<Step>({
      {4, as_step(set_command())},
      {3, as_step(plain({k}, "GET"))},
      {1, as_step(plain({k}, "GETDEL"))},
      {2, as_step(plain({k, v}, "SETNX"))},
      {2, as_step(plain({k}, "DEL"))},
      {1, as_step(plain({k, k, k}, "EXISTS"))},
      {3, as_step(expire_command())},
      {1, as_step(plain({k, rc::gen::element<std::string>("1000", "4102444800000")}, "PEXPIREAT"))},
      {2, as_step(plain({k}, "TTL"))},
      {1, rc::gen::map(plain({k}, "PTTL"), [](Command c) { return Step{std::move(c), true}; })},
      {1, as_step(plain({k}, "PERSIST"))},
      {1, as_step(plain({k}, "TYPE"))},
      {2, as_step(plain({k}, "INCR"))},
      {1, as_step(plain({k}, "DECR"))},
      {1, as_step(plain({k, v}, "INCRBY"))},
      {1, as_step(plain({k, v}, "DECRBY"))},
      {3, as_step(plain({k, rc::gen::element<std::string>("f", "g"), v}, "HSET"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("f", "g"), v, rc::gen::element<std::string>("h", "f")}, "HSET"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("f", "g")}, "HGET"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("f", "g")}, "HDEL"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("f", "g")}, "HEXISTS"))},
      {2, as_step(plain({k, rc::gen::element<std::string>("f", "g"), v}, "HINCRBY"))},
      {1, as_step(plain({k}, "HLEN"))},
      {1, as_step(plain({k}, "HGETALL"))},
      {2, as_step(plain({k, v, v}, "LPUSH"))},
      {1, as_step(plain({k, v}, "RPUSH"))},
      {1, as_step(plain({k}, "LPOP"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("0", "1", "2", "-1")}, "LPOP"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("0", "-2", "1"), rc::gen::element<std::string>("-1", "0", "5")}, "LRANGE"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("0", "1", "-1"), v}, "LREM"))},
      {2, as_step(plain({k, rc::gen::element<std::string>("1", "1.1", "-inf", "abc", "2.5"), v}, "ZADD"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("NX", "XX", "GT", "CH"), rc::gen::element<std::string>("1", "3"), v}, "ZADD"))},
      {1, as_step(plain({k, v}, "ZREM"))},
      {1, as_step(plain({k, v}, "ZSCORE"))},
      {1, as_step(plain({k, rc::gen::just<std::string>("0"), rc::gen::just<std::string>("-1"), rc::gen::just<std::string>("WITHSCORES")}, "ZRANGE"))},
      {1, as_step(plain({k, ttl_s(), v}, "SETEX"))},
      {1, as_step(plain({k, ttl_ms(), v}, "PSETEX"))},
      {1, as_step(plain({k, v}, "GETSET"))},
      {1, as_step(plain({k}, "GETEX"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("EX", "PX", "EXAT", "PXAT", "px", "FOO"), ttl_ms()}, "GETEX"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("PERSIST", "EX")}, "GETEX"))},
      {1, as_step(plain({k, v}, "APPEND"))},
      {1, as_step(plain({k}, "STRLEN"))},
      {1, as_step(plain({k, k, k}, "MGET"))},
      {1, as_step(plain({k, v, k, v}, "MSET"))},
      {1, as_step(plain({k, v, k, v}, "MSETNX"))},
      {1, as_step(plain({k, k}, "TOUCH"))},
      {1, as_step(plain({k, k}, "RENAME"))},
      {1, as_step(plain({k, k}, "RENAMENX"))},
      {1, rc::gen::map(plain_named({k}, rc::gen::element<std::string>("EXPIRETIME", "PEXPIRETIME")),
                       [](Command c) { return Step{std::move(c), true}; })},
      {1, as_step(plain({k, rc::gen::element<std::string>("f", "g"), v}, "HSETNX"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("f", "g"), v}, "HMSET"))},
      {1, as_step(plain({k, rc::gen::element<std::string>("f", "g")}, "HSTRLEN"))},
      {1, as_step(plain_named({k}, rc::gen::element<std::string>("HKEYS", "HVALS")))},
      // Transactions on this one connection: its own writes break its WATCH, as on Redis. EXEC may return a
      // PTTL queued earlier, hence time-tolerant.
      {2, as_step(plain({}, "MULTI"))},
      {2, rc::gen::map(plain({}, "EXEC"), [](Command c) { return Step{std::move(c), true}; })},
      {1, as_step(plain({}, "DISCARD"))},
      {1, as_step(plain({k, k}, "WATCH"))},
      {1, as_step(plain({}, "UNWATCH"))},
      {1, as_step(plain({}, "DBSIZE"))},
      {1, as_step(plain({v}, "PING"))},
      {1, rc::gen::exec([] { return Step{{*rc::gen::element<std::string>("FOO", "get", "Get"), *key(), "x"}, false}; })},
      {8, script_step()},
  });
}

// Replies equal in kind and value; a TTL may differ by the milliseconds the two servers ran apart.
bool same(const Reply& mock, const Reply& real, bool time_tolerant) {
  if (time_tolerant && mock.kind == Reply::Kind::integer && real.kind == Reply::Kind::integer && mock.integer >= 0 &&
      real.integer >= 0) {
    return std::llabs(mock.integer - real.integer) <= 1000;
  }
  if (time_tolerant && mock.kind == Reply::Kind::array && real.kind == Reply::Kind::array &&
      mock.elements.size() == real.elements.size()) {
    for (std::size_t i = 0; i < mock.elements.size(); ++i) {
      if (!same(mock.elements[i], real.elements[i], true)) return false;
    }
    return true;
  }
  return mock == real;
}

// DBSIZE counts expired keys not yet reclaimed, on both servers; redis-server's 10 Hz active expiry may have
// reclaimed some (SET ... EXAT 1) that the mock, which expires only on access here, still holds.
bool dbsize_within_reclaim(const Node& node, const Command& command, const Reply& mock, const Reply& real) {
  if (command.empty() || command[0] != "DBSIZE" || mock.kind != Reply::Kind::integer || real.kind != Reply::Kind::integer) {
    return false;
  }
  std::int64_t expired_in_place = 0;
  for (const auto& [key, entry] : node.keyspace().dataset().entries) {
    expired_in_place += entry.expire_at_ms && *entry.expire_at_ms < node.now_ms() ? 1 : 0;
  }
  return real.integer <= mock.integer && real.integer >= mock.integer - expired_in_place;
}

TEST(Differential, MockAnswersLikeRealRedis) {
  setenv("RC_PARAMS", "max_success=2500 max_size=40", /*overwrite=*/0);
  lockcheck::testing::RedisServer server;
  HiredisClient real(server.host(), server.port());
  std::int64_t client_id = 0;
  std::string last_failure;  // RapidCheck re-runs the minimal case last, so this describes it
  bool ok = rc::check("mock and redis-server 7.0 give identical replies", [&] {
    auto steps = *rc::gen::container<std::vector<Step>>(step());
    real.call({"DISCARD"});  // a sequence may have ended inside MULTI or with keys watched
    real.call({"UNWATCH"});
    real.call({"FLUSHALL"});
    real.call({"SCRIPT", "FLUSH"});
    Node node(NodeOptions{.clock = real_unix_time_ms});
    Session session{.client_id = ++client_id};
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const Step& s = steps[i];
      Reply expected = real.call(s.command);
      Reply actual = node.execute(s.command, session);
      if (!same(actual, expected, s.time_tolerant) && !dbsize_within_reclaim(node, s.command, actual, expected)) {
        last_failure = "step " + std::to_string(i) + " differs: " + show(s.command) + "\n  mock:  " + to_string(actual) +
                       "\n  redis: " + to_string(expected);
        RC_FAIL("step " + std::to_string(i) + " differs: " + show(s.command) + "\n  mock:  " + to_string(actual) +
                "\n  redis: " + to_string(expected));
      }
    }
  });
  EXPECT_TRUE(ok) << "first differing command of the shrunk sequence: " << last_failure;
}

}  // namespace
}  // namespace lockcheck::mock::testing
