-- Breaks the script contract: answers 2 when it releases (meant as "released"), where the contract wants 1,
-- true or OK. The probe before the run releases a lock it holds, so the file is refused at load.
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('del', KEYS[1])
  return 2
end
return 0
