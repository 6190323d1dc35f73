// The one wait: resolves after `ms`, or as soon as `signal` aborts (an interrupt never waits out a
// pause or a poll; the caller's next step sees the aborted signal). It never rejects. The timer is
// not unref'd: while a step winds down it may be all that keeps the process alive.

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted === true) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
