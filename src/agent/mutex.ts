// One lock per step: every edit is read, checked and written without another edit in between, so a
// check against the file's current text is still true when the bytes land (the seed's critical section).
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `fn` once every earlier caller has finished; the lock is released even when `fn` throws. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
