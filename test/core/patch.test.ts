// Behaviour 11: patches with 3 lines of context, counts, and a fallback when alignment gives up.
import { structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { applyEdits, makePatch } from '../../src/core/index.js';
import { changedSpan } from '../../src/core/edit/regions.js';
import { patchFromChanges } from '../../src/core/patch/make-patch.js';
import { changed, file } from './helpers.js';

const lines = (n: number, f = (i: number) => `line ${i}`): string => Array.from({ length: n }, (_, i) => f(i) + '\n').join('');
const jsdiff = (a: string, b: string) => structuredPatch('a', 'b', a, b, undefined, undefined, { context: 3 }).hunks;

describe('makePatch', () => {
  it('gives the hunks jsdiff gives, with 3 lines of context', () => {
    const a = lines(20);
    const b = a.replace('line 10\n', 'line ten\n');
    const p = makePatch(a, b);
    expect(p.hunks).toEqual(jsdiff(a, b));
    expect(p.hunks[0]).toMatchObject({ oldStart: 8, oldLines: 7, newStart: 8, newLines: 7 });
    expect(p.hunks[0]?.lines).toEqual([' line 7', ' line 8', ' line 9', '-line 10', '+line ten', ' line 11', ' line 12', ' line 13']);
    expect(p).toMatchObject({ added: 1, removed: 1 });
  });

  it('joins changes 6 lines apart into one hunk and splits them 7 apart', () => {
    const a = lines(40);
    const near = a.replace('line 10\n', 'X\n').replace('line 17\n', 'Y\n');
    const far = a.replace('line 10\n', 'X\n').replace('line 18\n', 'Y\n');
    expect(makePatch(a, near).hunks).toHaveLength(1);
    expect(makePatch(a, far).hunks).toHaveLength(2);
    expect(makePatch(a, near).hunks).toEqual(jsdiff(a, near));
    expect(makePatch(a, far).hunks).toEqual(jsdiff(a, far));
  });

  it('marks a missing newline at the end of either side as jsdiff does', () => {
    for (const [a, b] of [
      ['a\nb', 'a\nc'],
      ['a\nb', 'a\nb\n'],
      ['a\nb\n', 'a\nb'],
      ['', 'new'],
      ['old', ''],
    ] as const) {
      expect(makePatch(a, b).hunks, JSON.stringify([a, b])).toEqual(jsdiff(a, b));
    }
  });

  it('has no hunks for equal texts', () => {
    expect(makePatch('same\n', 'same\n')).toEqual({ hunks: [], added: 0, removed: 0 });
  });

  it('counts a creation as all added and a deletion as all removed', () => {
    expect(makePatch('', 'a\nb\n')).toMatchObject({ added: 2, removed: 0 });
    expect(makePatch('a\nb\n', '')).toMatchObject({ added: 0, removed: 2 });
  });

  it('shows a region whose alignment gives up as replaced wholesale', () => {
    const a = 'ctx\none\ntwo\nthree\nend\n';
    const b = 'ctx\nthree\ntwo\none\nend\n';
    const regions = changedSpan(a, b);
    const aligned = patchFromChanges(a, regions);
    const gaveUp = patchFromChanges(a, regions, { timeout: 5000, maxEditLength: 1 });
    expect(aligned).toMatchObject({ added: 2, removed: 2 });
    expect(gaveUp).toMatchObject({ added: 3, removed: 3 });
    expect(gaveUp.hunks[0]?.lines).toEqual([' ctx', '-one', '-two', '-three', '+three', '+two', '+one', ' end']);
  });

  it('handles 100,000 changed lines (where a whole-file diff would time out)', () => {
    const a = lines(100_000);
    const b = lines(100_000, (i) => `LINE ${i}`);
    const p = makePatch(a, b);
    expect(p).toMatchObject({ added: 100_000, removed: 100_000 });
    expect(p.hunks).toHaveLength(1);
  });
});

describe('the patch of an edit', () => {
  it('covers exactly the edited lines, in a file of many lines', () => {
    const before = lines(1000);
    const c = changed(
      applyEdits(file('a.txt', before), [
        { old_string: 'line 100\n', new_string: 'line hundred\n' },
        { old_string: 'line 900\n', new_string: '' },
      ]),
    );
    expect(c.patch.hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines])).toEqual([
      [98, 7, 98, 7],
      [898, 7, 898, 6],
    ]);
    expect(c.patch.hunks).toEqual(jsdiff(before, c.newText));
  });

  it('of a replace_all on many lines has one change per line', () => {
    const before = lines(50, (i) => `call(${i}); call(${i + 1});`);
    const c = changed(applyEdits(file('a.ts', before), [{ old_string: 'call(', new_string: 'invoke(', replace_all: true }]));
    expect(c.patch).toMatchObject({ added: 50, removed: 50 });
    expect(c.patch.hunks).toEqual(jsdiff(before, c.newText));
  });
});
