// Inflating pack objects with one zlib state used again (src/git/inflate.ts): every outcome is the
// one `inflateSync` gives, whether the stream is whole, damaged, cut short, longer or shorter than
// the size the pack header states, or followed by the next object's bytes; and a state that saw
// an error does not spoil the objects after it.
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inflateSized, reusesInflateState } from '../../src/git/inflate.js';

/** What `inflateSync` gives, or the error it throws (code and message), for the same call. */
function plain(input: Buffer, size: number): Buffer | { code: unknown; message: string } {
  try {
    return inflateSync(input, { chunkSize: Math.min(Math.max(64, size + 1), 64 * 1024 * 1024), maxOutputLength: size + 1 });
  } catch (e) {
    return { code: (e as { code?: unknown }).code, message: (e as Error).message };
  }
}

function ours(input: Buffer, size: number): Buffer | { code: unknown; message: string } {
  try {
    return inflateSized(input, size);
  } catch (e) {
    return { code: (e as { code?: unknown }).code, message: (e as Error).message };
  }
}

const text = (n: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => `line ${i} ${'x'.repeat(i % 17)}\n`).join(''));

describe('inflateSized', () => {
  it('reuses one zlib state on this Node (its native handle is what the module expects)', () => {
    expect(reusesInflateState()).toBe(true);
  });

  it('gives exactly the stated bytes, for empty, small and large objects, many times over', () => {
    for (let round = 0; round < 3; round++) {
      for (const n of [0, 1, 10, 300, 5000, 70_000]) {
        const data = text(n);
        const got = inflateSized(deflateSync(data), data.length);
        expect(got.equals(data)).toBe(true);
        expect(got.length).toBe(data.length);
      }
    }
  });

  it('ignores the bytes after the stream (the next object in the pack)', () => {
    const data = text(200);
    const next = deflateSync(text(50));
    expect(inflateSized(Buffer.concat([deflateSync(data), next]), data.length).equals(data)).toBe(true);
  });

  it('answers as inflateSync does for a stream cut short, damaged, longer or shorter than stated', () => {
    const data = text(400);
    const z = deflateSync(data);
    const damaged = Buffer.from(z);
    const mid = Math.floor(z.length / 2);
    damaged[mid] = (damaged[mid] as number) ^ 0xff;
    const cases: [Buffer, number][] = [
      [z.subarray(0, Math.floor(z.length / 2)), data.length],
      [damaged, data.length],
      [z, data.length - 10],
      [z, data.length + 10],
      [Buffer.from('not zlib at all'), 12],
      [Buffer.alloc(0), 5],
    ];
    for (const [input, size] of cases) {
      const want = plain(input, size);
      const got = ours(input, size);
      if (Buffer.isBuffer(want)) expect(Buffer.isBuffer(got) && got.equals(want)).toBe(true);
      else expect(got).toEqual(want);
    }
    // A stream shorter than stated gives its bytes (the pack reader then calls it damaged); the others throw.
    expect(cases.map(([input, size]) => Buffer.isBuffer(plain(input, size)))).toEqual([false, false, false, true, false, false]);
    // Each failure above left no trace: the next object inflates as ever.
    expect(inflateSized(z, data.length).equals(data)).toBe(true);
  });
});
