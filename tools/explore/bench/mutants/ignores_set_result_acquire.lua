-- Mutant: SET NX PX, then "return 1" whatever SET answered (the result was never checked). KEYS[1], ARGV[1]
-- token, ARGV[2] TTL ms.
redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
return 1
