#pragma once
// Command handlers, one group per file (commands_*.cpp). Arity is checked before a handler runs.
#include "command.hpp"

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
// strings
Reply set(CommandContext&);
Reply get(CommandContext&);
Reply getdel(CommandContext&);
Reply setnx(CommandContext&);
Reply incr(CommandContext&);
Reply decr(CommandContext&);
Reply incrby(CommandContext&);
Reply decrby(CommandContext&);
// hashes
Reply hset(CommandContext&);
Reply hget(CommandContext&);
Reply hmget(CommandContext&);
Reply hdel(CommandContext&);
Reply hexists(CommandContext&);
Reply hincrby(CommandContext&);
Reply hlen(CommandContext&);
Reply hgetall(CommandContext&);
// lists
Reply lpush(CommandContext&);
Reply rpush(CommandContext&);
Reply lpop(CommandContext&);
Reply rpop(CommandContext&);
Reply lrange(CommandContext&);
Reply lrem(CommandContext&);
Reply llen(CommandContext&);
// sorted sets
Reply zadd(CommandContext&);
Reply zrem(CommandContext&);
Reply zrange(CommandContext&);
Reply zscore(CommandContext&);
Reply zcard(CommandContext&);
// server and connection
Reply ping(CommandContext&);
Reply echo(CommandContext&);
Reply time(CommandContext&);
Reply flushall(CommandContext&);
Reply dbsize(CommandContext&);
Reply wait(CommandContext&);
Reply info(CommandContext&);
Reply select(CommandContext&);
Reply quit(CommandContext&);
Reply client(CommandContext&);
Reply auth(CommandContext&);
Reply command(CommandContext&);
// pub/sub
Reply publish(CommandContext&);
Reply subscribe(CommandContext&);
Reply unsubscribe(CommandContext&);
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

}  // namespace lockcheck::mock::cmd
