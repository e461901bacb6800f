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
Reply expiretime(CommandContext&);
Reply pexpiretime(CommandContext&);
// several keys
Reply mget(CommandContext&);
Reply mset(CommandContext&);
Reply msetnx(CommandContext&);
Reply touch(CommandContext&);
Reply rename(CommandContext&);
Reply renamenx(CommandContext&);
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
Reply role(CommandContext&);
Reply select(CommandContext&);
Reply quit(CommandContext&);
Reply client(CommandContext&);
Reply auth(CommandContext&);
Reply command(CommandContext&);
Reply hello(CommandContext&);
Reply config(CommandContext&);
// pub/sub
Reply publish(CommandContext&);
Reply subscribe(CommandContext&);
Reply unsubscribe(CommandContext&);
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

}  // namespace lockcheck::mock::cmd
