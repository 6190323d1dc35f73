// The small helpers every layer shares (src/util): one order, one way to say a count, one wait.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../../src/util/compare.js';
import { num, plural, pluralWord } from '../../src/util/plural.js';
import { sleep } from '../../src/util/sleep.js';

describe('compareCodeUnits', () => {
  it('sorts by UTF-16 code units, whatever the locale: upper case first, a surrogate pair before U+FFFD', () => {
    const sorted = ['b', 'a', 'B', 'é', '\uFFFD', '😀', 'a'].sort(compareCodeUnits);
    expect(sorted).toEqual(['B', 'a', 'a', 'b', 'é', '😀', '\uFFFD']);
    expect(compareCodeUnits('x', 'x')).toBe(0);
  });
});

describe('plural', () => {
  it('says the count with the word in its number, with en-US separators', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(0, 'file')).toBe('0 files');
    expect(plural(1234, 'branch', 'branches')).toBe('1,234 branches');
    expect(num(1234567)).toBe('1,234,567');
    expect(pluralWord(1, 'line')).toBe('line');
    expect(pluralWord(3, 'was', 'were')).toBe('were');
  });

  it("writes every number as toLocaleString('en-US') does (whole numbers grouped without ICU, the rest by it)", () => {
    for (const n of [0, -0, 7, -999, 1000, -1000, 999_999, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 1.5, 1234.5678, NaN, Infinity]) {
      expect(num(n)).toBe(n.toLocaleString('en-US'));
    }
    fc.assert(fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => num(n) === n.toLocaleString('en-US')));
  });
});

describe('sleep', () => {
  it('resolves when its signal aborts, long before its time', async () => {
    const controller = new AbortController();
    const waiting = sleep(1_000_000_000, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBeUndefined();
  });

  it('resolves at once for an aborted signal or no time, and after its time otherwise', async () => {
    await expect(sleep(1_000_000_000, AbortSignal.abort())).resolves.toBeUndefined();
    await expect(sleep(0)).resolves.toBeUndefined();
    let done = false;
    const waiting = sleep(5).then(() => (done = true));
    expect(done).toBe(false);
    await waiting;
    expect(done).toBe(true);
  });
});
