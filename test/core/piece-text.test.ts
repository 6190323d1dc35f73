// The piece text behind edit sequences: after any replacements, searching it must find exactly what
// an indexOf loop over the rebuilt flat string finds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charCodeAt, findAllIn, pieceText, replaceIn, textOf, type PieceText } from '../../src/core/edit/piece-text.js';
import { applyChanges, toChanges } from '../../src/core/edit/regions.js';

const abc = (min: number, max: number) => fc.string({ unit: fc.constantFrom('a', 'b', '\n'), minLength: min, maxLength: max });

function flatFindAll(text: string, s: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(s); i !== -1; i = text.indexOf(s, i + s.length)) out.push(i);
  return out;
}

/** Applies batches of (position, length, text) picks to both the piece text and a flat string. */
function build(base: string, batches: readonly (readonly [number, number, string])[][]): { t: PieceText; flat: string } {
  let t = pieceText(base);
  let flat = base;
  for (const batch of batches) {
    // Turn the picks into ascending, non-overlapping replacements of the current text.
    const reps: { start: number; oldLength: number; text: string }[] = [];
    let free = 0;
    for (const [at, len, text] of [...batch].sort((x, y) => x[0] - y[0])) {
      const start = Math.min(Math.max(at % (flat.length + 1), free), flat.length);
      const oldLength = Math.min(len, flat.length - start);
      if (start < free) continue;
      reps.push({ start, oldLength, text });
      free = start + oldLength + 1;
    }
    t = replaceIn(t, reps);
    let out = '';
    let prev = 0;
    for (const r of reps) {
      out += flat.slice(prev, r.start) + r.text;
      prev = r.start + r.oldLength;
    }
    flat = out + flat.slice(prev);
  }
  return { t, flat };
}

const batches = fc.array(fc.array(fc.tuple(fc.nat(80), fc.nat(4), abc(0, 4)), { maxLength: 4 }), { maxLength: 4 });

describe('piece text', () => {
  it('finds what an indexOf loop over the flat text finds, after any replacements', () => {
    fc.assert(
      fc.property(abc(0, 60), batches, abc(1, 4), (base, bs, needle) => {
        const { t, flat } = build(base, bs);
        expect(t.length).toBe(flat.length);
        expect(findAllIn(t, needle)).toEqual(flatFindAll(flat, needle));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads characters and spans of the current text, and its regions rebuild it', () => {
    fc.assert(
      fc.property(abc(0, 60), batches, fc.nat(80), fc.nat(80), (base, bs, x, y) => {
        const { t, flat } = build(base, bs);
        expect(textOf(t)).toBe(flat);
        expect(applyChanges(base, toChanges(t.regions))).toBe(flat);
        const from = Math.min(x, y) % (flat.length + 1);
        const to = Math.min(flat.length, from + (Math.max(x, y) % 7));
        expect(textOf(t, from, to)).toBe(flat.slice(from, to));
        if (flat.length > 0) expect(charCodeAt(t, x % flat.length)).toBe(flat.charCodeAt(x % flat.length));
      }),
      { numRuns: 2000 },
    );
  });
});
