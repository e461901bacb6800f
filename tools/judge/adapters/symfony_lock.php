<?php
// lockcheck judge adapter for symfony/lock's RedisStore (Debian php-symfony-lock, over php-redis), speaking
// PROTOCOL.md. Single Redis only. Its key is LOCKCHECK_KEY itself. Run: php THIS_FILE
require_once '/usr/share/php/Symfony/Component/Lock/autoload.php';
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Exception\LockReleasingException;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\RedisStore;

$env = getenv();
if (($env['LOCKCHECK_TOPOLOGY'] ?? 'single') !== 'single') { fwrite(STDERR, "symfony_lock: single only\n"); exit(2); }
[$host, $port] = explode(':', explode(',', $env['LOCKCHECK_REDIS'])[0]);
$redis = new \Redis();
$redis->connect($host, (int) $port, (int) $env['LOCKCHECK_COMMAND_TIMEOUT_MS'] / 1000.0);
$redis->client('setname', $env['LOCKCHECK_CLIENT_NAME']);
$ttl = (int) $env['LOCKCHECK_TTL_MS'] / 1000.0;
$factory = new LockFactory(new RedisStore($redis, $ttl));
$lock = null; // the one lease this client may hold
const RETRY_DELAY_MS = 100; // as Lock::acquire(true) polls a store that cannot block

function reply(array $message): void { fwrite(STDOUT, json_encode($message) . "\n"); fflush(STDOUT); }
// The library's own validity (its Key's expiring date, set before each save from microtime), counted from the
// request's reading on the monotonic clock (PROTOCOL.md "Validity").
function validity($lock, float $read): array {
  $left = $lock->getRemainingLifetime();
  return $left === null ? [] : ['valid_ms' => $left * 1000.0 + (hrtime(true) / 1e6 - $read)];
}

reply(['type' => 'hello', 'client' => 'symfony/lock RedisStore', 'ops' => ['acquire', 'release', 'renew', 'use', 'held']]);
while (($line = fgets(STDIN)) !== false) {
  $read = hrtime(true) / 1e6;
  $req = json_decode($line, true);
  $id = $req['id'];
  try {
    switch ($req['op']) {
      case 'acquire': // acquire(false) is one attempt; it is retried every 100 ms while wait_ms lasts
        $candidate = $factory->createLock($env['LOCKCHECK_KEY'], $ttl, false);
        $end = $read + ($req['wait_ms'] ?? 0);
        while (!$candidate->acquire(false)) {
          if (hrtime(true) / 1e6 + RETRY_DELAY_MS > $end) { reply(['id' => $id, 'type' => 'fail', 'error' => 'not acquired']); continue 3; }
          usleep(RETRY_DELAY_MS * 1000);
        }
        $lock = $candidate;
        reply(['id' => $id, 'type' => 'ok'] + validity($lock, $read));
        break;
      case 'renew':
        if ($lock === null) { reply(['id' => $id, 'type' => 'fail', 'error' => 'not held']); break; }
        $lock->refresh();
        reply(['id' => $id, 'type' => 'ok'] + validity($lock, $read));
        break;
      case 'release':
        if ($lock === null) { reply(['id' => $id, 'type' => 'fail', 'error' => 'not held']); break; }
        [$held, $lock] = [$lock, null];
        $held->release();
        reply(['id' => $id, 'type' => 'ok']);
        break;
      case 'use': // no fencing token; answering now is performing now
        reply(['id' => $id, 'type' => 'ok']);
        break;
      case 'held': // isAcquired(): the store still has our token
        reply(['id' => $id, 'type' => 'ok', 'held' => $lock !== null && $lock->isAcquired()]);
        break;
      default:
        reply(['id' => $id, 'type' => 'fail', 'error' => 'unsupported']);
    }
  } catch (LockConflictedException | LockExpiredException $e) { // Redis answered: not ours (any more)
    reply(['id' => $id, 'type' => 'fail', 'error' => $e->getMessage()]);
  } catch (\Throwable $e) { // a connection error or timeout: it may have happened
    reply(['id' => $id, 'type' => 'info', 'error' => get_class($e) . ': ' . $e->getMessage()]);
  }
}
