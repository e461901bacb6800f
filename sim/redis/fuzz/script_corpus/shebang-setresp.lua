#!lua flags=no-writes,allow-oom
redis.setresp(3) return {type(redis.call('get', KEYS[1] or 'k')), redis.pcall('set', 'k', 'v')}