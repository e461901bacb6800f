// The protocol's operations for redis-semaphore's Mutex and RedlockMutex, which share one API: `create(options)`
// makes the library's object for one acquisition of LOCKCHECK_KEY (each adapter passes its class and clients).
const env = process.env, ttl = Number(env.LOCKCHECK_TTL_MS);

module.exports.mutexOps = function mutexOps(create) {
  let mutex = null; // the one lease this client may hold (a mutex object holds one identifier)
  return {
    async acquire(r) {
      const wait = r.wait_ms || 0;
      // The library loops while now < start + acquireTimeout, so acquireTimeout 0 would make no attempt:
      // wait 0 is one attempt (acquireAttemptsLimit 1). lockTimeout = TTL; the library refreshes the
      // key in the background every refreshInterval (default 0.8 * lockTimeout) until release.
      const m = create({
        lockTimeout: ttl,
        ...(wait > 0 ? { acquireTimeout: wait } : { acquireTimeout: ttl, acquireAttemptsLimit: 1 }),
        // Default onLockLost throws from a timer (an unhandled rejection that kills node);
        // a service logs it and sees isAcquired turn false, as we do.
        onLockLost: (err) => console.error("onLockLost:", err.message),
      });
      // RedlockMutex counts a node's error as a vote against and deletes its key on every node before
      // saying false, so "not acquired" is definite for both, as the library means it.
      if (!(await m.tryAcquire())) throw Object.assign(new Error("not acquired"), { definite: true });
      mutex = m;
    },
    // The library's contract: a holder checks isAcquired (turned false by a failed refresh) before it acts.
    async use() { if (!mutex || !mutex.isAcquired) throw Object.assign(new Error("lock lost"), { definite: true }); },
    // No renew: refresh is protected (_refresh), run only by the library's own timer.
    async release() {
      if (!mutex) throw Object.assign(new Error("not held"), { definite: true });
      const m = mutex; mutex = null;
      await m.release(); // resolves whether or not the key(s) were still ours (the library does not say)
    },
    async held() { return { held: mutex !== null && mutex.isAcquired }; }, // false once a refresh failed
  };
};
