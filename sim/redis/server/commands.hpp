#pragma once
// Command handlers, one group per file (commands_*.cpp). Arity is checked before a handler runs.
#include "redis/server/command.hpp"
#include "redis/scripting/lua_engine.hpp"

namespace lockcheck::mock::cmd {

// keys
Reply del(CommandContext&);
Reply exists(CommandContext&);
Reply expire(CommandContext&);
Reply pexpire(CommandContext&);
Reply expireat(CommandContext&);
Reply pexpireat(CommandContext&);
Reply ttl(CommandContext&);
Reply pttl(CommandContext&);
Reply persist(CommandContext&);
Reply type(CommandContext&);
Reply expiretime(CommandContext&);
Reply pexpiretime(CommandContext&);
// HRANDFIELD, ZRANDMEMBER (commands_random_fields.cpp)
Reply hrandfield(CommandContext&);
Reply zrandmember(CommandContext&);
// OBJECT (commands_object.cpp), MEMORY (commands_memory.cpp)
Reply object(CommandContext&);
Reply memory(CommandContext&);
// several keys
Reply mget(CommandContext&);
Reply mset(CommandContext&);
Reply msetnx(CommandContext&);
Reply touch(CommandContext&);
Reply rename(CommandContext&);
Reply renamenx(CommandContext&);
// KEYS, SCAN, HSCAN, RANDOMKEY (commands_scan.cpp)
Reply keys(CommandContext&);
Reply scan(CommandContext&);
Reply hscan(CommandContext&);
Reply randomkey(CommandContext&);
// INCRBYFLOAT, HINCRBYFLOAT (commands_float.cpp)
Reply incrbyfloat(CommandContext&);
Reply hincrbyfloat(CommandContext&);
// strings
Reply set(CommandContext&);
Reply get(CommandContext&);
Reply getdel(CommandContext&);
Reply setnx(CommandContext&);
Reply incr(CommandContext&);
Reply decr(CommandContext&);
Reply incrby(CommandContext&);
Reply decrby(CommandContext&);
Reply setex(CommandContext&);
Reply psetex(CommandContext&);
Reply getex(CommandContext&);
Reply getset(CommandContext&);
Reply append(CommandContext&);
Reply strlen(CommandContext&);
// DUMP / RESTORE of a key (commands_dump.cpp)
Reply dump(CommandContext&);
Reply restore(CommandContext&);
// FUNCTION DUMP / RESTORE (commands_function_dump.cpp)
Reply function_dump(CommandContext&);
Reply function_restore(CommandContext&);
// GETRANGE/SUBSTR, SETRANGE, LCS (commands_string_range.cpp)
Reply getrange(CommandContext&);
Reply setrange(CommandContext&);
Reply lcs(CommandContext&);
// GETBIT, SETBIT, BITCOUNT, BITPOS, BITOP (commands_bits.cpp)
Reply getbit(CommandContext&);
Reply setbit(CommandContext&);
Reply bitcount(CommandContext&);
Reply bitpos(CommandContext&);
Reply bitop(CommandContext&);
// hashes
Reply hset(CommandContext&);
Reply hget(CommandContext&);
Reply hmget(CommandContext&);
Reply hdel(CommandContext&);
Reply hexists(CommandContext&);
Reply hincrby(CommandContext&);
Reply hlen(CommandContext&);
Reply hgetall(CommandContext&);
Reply hsetnx(CommandContext&);
Reply hmset(CommandContext&);
Reply hkeys(CommandContext&);
Reply hvals(CommandContext&);
Reply hstrlen(CommandContext&);
// lists
Reply lpush(CommandContext&);
Reply rpush(CommandContext&);
Reply lpop(CommandContext&);
Reply rpop(CommandContext&);
Reply lrange(CommandContext&);
Reply lrem(CommandContext&);
Reply llen(CommandContext&);
Reply lpushx(CommandContext&);
Reply rpushx(CommandContext&);
Reply lindex(CommandContext&);
Reply lset(CommandContext&);
Reply ltrim(CommandContext&);
Reply linsert(CommandContext&);
Reply lpos(CommandContext&);
Reply lmove(CommandContext&);
Reply rpoplpush(CommandContext&);
// blocking pops (commands_blocking.cpp)
Reply blpop(CommandContext&);
Reply brpop(CommandContext&);
Reply blmove(CommandContext&);
Reply brpoplpush(CommandContext&);
Reply bzpopmin(CommandContext&);
Reply bzpopmax(CommandContext&);
// LMPOP, BLMPOP, ZMPOP, BZMPOP (commands_mpop.cpp)
Reply lmpop(CommandContext&);
Reply blmpop(CommandContext&);
Reply zmpop(CommandContext&);
Reply bzmpop(CommandContext&);
// sorted sets
Reply zadd(CommandContext&);
// GEO (commands_geo.cpp, commands_geo_search.cpp)
Reply geoadd(CommandContext&);
Reply geodist(CommandContext&);
Reply geohash(CommandContext&);
Reply geopos(CommandContext&);
Reply georadius(CommandContext&);
Reply georadius_ro(CommandContext&);
Reply georadiusbymember(CommandContext&);
Reply georadiusbymember_ro(CommandContext&);
Reply geosearch(CommandContext&);
Reply geosearchstore(CommandContext&);
Reply zrem(CommandContext&);
Reply zrange(CommandContext&);
Reply zscore(CommandContext&);
Reply zcard(CommandContext&);
Reply zrevrange(CommandContext&);
Reply zrangebyscore(CommandContext&);
Reply zrevrangebyscore(CommandContext&);
Reply zrangebylex(CommandContext&);
Reply zrevrangebylex(CommandContext&);
Reply zcount(CommandContext&);
Reply zlexcount(CommandContext&);
Reply zremrangebyscore(CommandContext&);
Reply zremrangebyrank(CommandContext&);
Reply zremrangebylex(CommandContext&);
Reply zrank(CommandContext&);
Reply zrevrank(CommandContext&);
Reply zincrby(CommandContext&);
Reply zpopmin(CommandContext&);
Reply zpopmax(CommandContext&);
Reply zmscore(CommandContext&);
Reply zrangestore(CommandContext&);
// ZUNION/ZINTER/ZDIFF(+STORE), ZINTERCARD (commands_zset_algebra.cpp)
Reply zunion(CommandContext&);
Reply zinter(CommandContext&);
Reply zdiff(CommandContext&);
Reply zunionstore(CommandContext&);
Reply zinterstore(CommandContext&);
Reply zdiffstore(CommandContext&);
Reply zintercard(CommandContext&);
// SORT, SORT_RO (commands_sort.cpp)
Reply sort(CommandContext&);
Reply sort_ro(CommandContext&);
// sets
Reply sadd(CommandContext&);
Reply srem(CommandContext&);
Reply sismember(CommandContext&);
Reply smismember(CommandContext&);
Reply smembers(CommandContext&);
Reply scard(CommandContext&);
Reply smove(CommandContext&);
Reply spop(CommandContext&);
Reply srandmember(CommandContext&);
Reply sinter(CommandContext&);
Reply sunion(CommandContext&);
Reply sdiff(CommandContext&);
Reply sinterstore(CommandContext&);
Reply sunionstore(CommandContext&);
Reply sdiffstore(CommandContext&);
Reply sintercard(CommandContext&);
Reply sscan(CommandContext&);
// streams: XADD, XLEN, XRANGE, XREVRANGE, XDEL, XTRIM, XSETID (commands_stream.cpp); XREAD, XREADGROUP
// (commands_stream_read.cpp); XGROUP, XACK, XPENDING (commands_stream_group.cpp); XCLAIM, XAUTOCLAIM
// (commands_stream_claim.cpp); XINFO (commands_stream_info.cpp)
Reply xadd(CommandContext&);
Reply xlen(CommandContext&);
Reply xrange(CommandContext&);
Reply xrevrange(CommandContext&);
Reply xdel(CommandContext&);
Reply xtrim(CommandContext&);
Reply xsetid(CommandContext&);
Reply xread(CommandContext&);
Reply xreadgroup(CommandContext&);
Reply xgroup(CommandContext&);
Reply xack(CommandContext&);
Reply xpending(CommandContext&);
Reply xclaim(CommandContext&);
Reply xautoclaim(CommandContext&);
Reply xinfo(CommandContext&);
// server and connection
Reply ping(CommandContext&);
Reply echo(CommandContext&);
Reply time(CommandContext&);
// numbered databases (commands_db.cpp)
Reply flushall(CommandContext&);
Reply flushdb(CommandContext&);
Reply dbsize(CommandContext&);
Reply swapdb(CommandContext&);
Reply move(CommandContext&);
Reply copy(CommandContext&);
Reply wait(CommandContext&);
Reply info(CommandContext&);
Reply role(CommandContext&);
Reply select(CommandContext&);
Reply quit(CommandContext&);
Reply shutdown(CommandContext&);
Reply monitor(CommandContext&);
Reply client(CommandContext&);
Reply auth(CommandContext&);
Reply acl(CommandContext&);  // commands_acl.cpp
// A CLIENT LIST / CLIENT INFO line (also the ACL LOG's client-info).
std::string client_line(const Session& session, std::int64_t now_ms);
Reply command(CommandContext&);
Reply hello(CommandContext&);
Reply config(CommandContext&);
// pub/sub
Reply publish(CommandContext&);
Reply subscribe(CommandContext&);
Reply unsubscribe(CommandContext&);
Reply psubscribe(CommandContext&);
Reply punsubscribe(CommandContext&);
Reply ssubscribe(CommandContext&);
Reply sunsubscribe(CommandContext&);
Reply spublish(CommandContext&);
Reply pubsub(CommandContext&);
// transactions
Reply multi(CommandContext&);
Reply exec(CommandContext&);
Reply discard(CommandContext&);
Reply watch(CommandContext&);
Reply unwatch(CommandContext&);

// cluster (commands_cluster.cpp)
Reply cluster(CommandContext&);
Reply asking(CommandContext&);
Reply readonly(CommandContext&);
Reply readwrite(CommandContext&);
// scripting
Reply eval(CommandContext&);
Reply evalsha(CommandContext&);
Reply eval_ro(CommandContext&);
Reply evalsha_ro(CommandContext&);
Reply script(CommandContext&);
// functions (commands_function.cpp)
Reply function(CommandContext&);
Reply fcall(CommandContext&);
Reply fcall_ro(CommandContext&);
// SCRIPT KILL / FUNCTION KILL of the running script; `is_eval`: asked by SCRIPT KILL.
Reply kill_running_script(CommandContext&, bool is_eval);
// The -BUSY reply other clients get while `running` is past busy-reply-threshold.
Reply busy_error(const LuaEngine::Running& running);

}  // namespace lockcheck::mock::cmd
