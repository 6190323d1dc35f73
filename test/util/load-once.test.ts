// A package loaded on first use (util/load-once.ts): one load shared by its callers; a failed load is
// not kept, so the next call loads again.
import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../src/util/load-once.js';

describe('loadOnce', () => {
  it('shares one load among its callers, forgets a failed one and loads again at the next call', async () => {
    let calls = 0;
    const load = loadOnce(async () => {
      calls++;
      if (calls === 1) throw new Error('EMFILE: too many open files');
      return { loaded: calls };
    });
    const first = await Promise.allSettled([load(), load()]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toEqual({ loaded: 2 });
    expect(b).toBe(a);
    expect(await load()).toBe(a);
    expect(calls).toBe(2);
  });
});
