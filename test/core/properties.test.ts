// Property tests: round trips in every encoding and line-ending style, untouched bytes stay untouched,
// replace_all leaves nothing behind, patches apply.
import { applyPatch, structuredPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits, decodeText, encodeText, makePatch, type Encoding, type LineEndings } from '../../src/core/index.js';
import { changed, text } from './helpers.js';

const RUNS = { numRuns: 200 };
// No '\r' (line endings are the style's business) and none of the two marker characters.
const filler = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '\n', 'é', '😀', '"', "'", '\u201C', '<', 'n', '>', ':', '$', '&'), maxLength: 40 });
const encoding = fc.constantFrom<Encoding>('utf8', 'utf8-bom', 'utf16le');
const lineEndings = fc.constantFrom<LineEndings>('LF', 'CRLF');
// A marker makes each string unique in the text, so both the edit and its inverse are well defined.
const oldPart = filler.map((s) => '§' + s);
const newPart = filler.map((s) => '¤' + s);

// Markdown: no trailing-whitespace stripping, so the inverse edit restores exactly what was there.
const PATH = 'notes.md';

describe('properties', () => {
  it('an edit followed by its inverse gives back the original bytes, in every encoding and style', () => {
    fc.assert(
      fc.property(filler, oldPart, newPart, filler, encoding, lineEndings, (pre, oldS, newS, post, enc, le) => {
        // The style is read from the bytes: an edit that removes a CRLF file's only line break leaves
        // nothing to read it from, so the untouched text must keep one.
        fc.pre(le === 'LF' || (pre + post).includes('\n'));
        const before = encodeText(pre + oldS + post, enc, le);
        const once = changed(applyEdits({ path: PATH, bytes: before }, [{ old_string: oldS, new_string: newS }]));
        const back = changed(applyEdits({ path: PATH, bytes: once.after }, [{ old_string: newS, new_string: oldS }]));
        expect(back.after).toEqual(before);
      }),
      RUNS,
    );
  });

  it('bytes before and after the edited region never change', () => {
    fc.assert(
      fc.property(filler, oldPart, newPart, filler, encoding, lineEndings, (pre, oldS, newS, post, enc, le) => {
        const before = encodeText(pre + oldS + post, enc, le);
        const after = changed(applyEdits({ path: PATH, bytes: before }, [{ old_string: oldS, new_string: newS }])).after;
        const head = encodeText(pre, enc, le).length;
        const tail = encodeText(post, enc, le).length - (enc === 'utf8' ? 0 : enc === 'utf8-bom' ? 3 : 2);
        expect(after.subarray(0, head)).toEqual(before.subarray(0, head));
        expect(after.subarray(after.length - tail)).toEqual(before.subarray(before.length - tail));
      }),
      RUNS,
    );
  });

  it('in a file with mixed line endings, lines outside the edit keep their own endings', () => {
    const line = fc
      .tuple(
        filler.map((t) => t.replaceAll('\n', '')),
        fc.constantFrom('\n', '\r\n'),
      )
      .map(([t, eol]) => t + eol);
    const rawLines = fc.array(line, { maxLength: 8 }).map((ls) => ls.join(''));
    fc.assert(
      fc.property(rawLines, oldPart, newPart, rawLines, encoding, (pre, oldS, newS, post, enc) => {
        const bytesOf = (raw: string) => encodeText(raw, enc, 'LF');
        const before = bytesOf(pre + oldS + post);
        const after = changed(applyEdits({ path: PATH, bytes: before }, [{ old_string: oldS, new_string: newS }])).after;
        const bom = enc === 'utf8' ? 0 : enc === 'utf8-bom' ? 3 : 2;
        const head = bytesOf(pre).length;
        const tail = bytesOf(post).length - bom;
        expect(after.subarray(0, head)).toEqual(before.subarray(0, head));
        expect(after.subarray(after.length - tail)).toEqual(before.subarray(before.length - tail));
      }),
      RUNS,
    );
  });

  it('replace_all leaves no occurrence behind unless new_string contains it', () => {
    const newString = fc.oneof(
      newPart,
      fc.tuple(newPart, filler).map(([a, b]) => [a, b] as const),
    );
    fc.assert(
      fc.property(fc.array(filler, { minLength: 2, maxLength: 6 }), oldPart, newString, (pieces, oldS, spec) => {
        const newS = typeof spec === 'string' ? spec : spec[0] + oldS + spec[1];
        const content = pieces.join(oldS);
        const after = changed(
          applyEdits({ path: PATH, bytes: encodeText(content, 'utf8', 'LF') }, [{ old_string: oldS, new_string: newS, replace_all: true }]),
        );
        expect(text(after.after)).toBe(content.split(oldS).join(newS));
        if (!newS.includes(oldS)) expect(text(after.after).includes(oldS)).toBe(false);
      }),
      RUNS,
    );
  });

  it('replace_all agrees with split/join on any small-alphabet text', () => {
    const abc = (min: number) => fc.string({ unit: fc.constantFrom('a', 'b', '\n'), minLength: min, maxLength: 30 });
    fc.assert(
      fc.property(abc(0), abc(1), abc(1), (content, oldS, newS) => {
        fc.pre(oldS !== newS && content.includes(oldS));
        const after = changed(
          applyEdits({ path: 'a.txt', bytes: encodeText(content, 'utf8', 'LF') }, [{ old_string: oldS, new_string: newS, replace_all: true }]),
        );
        expect(text(after.after)).toBe(content.split(oldS).join(newS));
      }),
      RUNS,
    );
  });

  it('a sequence of edits equals the same edits applied one call at a time', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, filler), { minLength: 1, maxLength: 5 }), filler, (parts, tail) => {
        // Edit k turns marker k into its own new marker; no old_string can be inside another's new_string.
        const content = parts.map(([p], k) => p + `«${k}»`).join('') + tail;
        const edits = parts.map(([, n], k) => ({ old_string: `«${k}»`, new_string: `‹${k}›${n}` }));
        const bytes = encodeText(content, 'utf8', 'CRLF');
        const together = changed(applyEdits({ path: PATH, bytes }, edits));
        let one = bytes;
        for (const e of edits) one = changed(applyEdits({ path: PATH, bytes: one }, [e])).after;
        expect(together.after).toEqual(one);
      }),
      RUNS,
    );
  });

  it('a sequence gives what a plain flat-string implementation of the same rules gives', () => {
    // Small alphabet so that matches run across earlier edits, deletions and each other.
    const abc = (min: number, max: number) => fc.string({ unit: fc.constantFrom('a', 'b', 'c', '\n'), minLength: min, maxLength: max });
    const editArb = fc.record({ old_string: abc(1, 4), new_string: abc(0, 4), replace_all: fc.boolean() }).filter((e) => e.old_string !== e.new_string);
    fc.assert(
      fc.property(abc(0, 60), fc.array(editArb, { minLength: 1, maxLength: 6 }), (content, edits) => {
        const expected = reference(content, edits);
        const r = applyEdits({ path: PATH, bytes: encodeText(content, 'utf8', 'LF') }, edits);
        if (typeof expected === 'string') {
          expect(r.ok && text(r.value.after)).toBe(expected);
          expect(r.ok && r.value.newText).toBe(expected);
        } else {
          expect(r.ok ? 'ok' : r.error.kind).toBe(expected.kind);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('decode(encode(text)) is the text, in every encoding and style', () => {
    const anyText = fc.string({ unit: 'grapheme', maxLength: 60 }).filter((s) => !s.includes('\r') && !s.includes('\0') && !s.startsWith('\uFEFF'));
    fc.assert(
      fc.property(anyText, encoding, lineEndings, (t, enc, le) => {
        const d = decodeText(encodeText(t, enc, le));
        expect(d.ok && d.value.text).toBe(t);
        expect(d.ok && d.value.encoding).toBe(enc);
      }),
      RUNS,
    );
  });

  it('patches apply to the old text to give the new one, with the counts jsdiff gives', () => {
    const lineText = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '\n', 'x\n'), maxLength: 60 });
    fc.assert(
      fc.property(lineText, lineText, (a, b) => {
        const p = makePatch(a, b);
        const hunks = p.hunks.map((h) => ({ ...h, lines: [...h.lines] }));
        const patched = applyPatch(a, { oldFileName: 'a', newFileName: 'b', oldHeader: undefined, newHeader: undefined, hunks });
        expect(patched).toBe(b);
        const theirs = structuredPatch('a', 'b', a, b, undefined, undefined, { context: 3 }).hunks.flatMap((h) => h.lines);
        expect(p.added).toBe(theirs.filter((l) => l.startsWith('+')).length);
        expect(p.removed).toBe(theirs.filter((l) => l.startsWith('-')).length);
      }),
      RUNS,
    );
  });
});

/** The seed's sequence rules on a flat string, the obvious way: the oracle for the engine's regions. */
function reference(content: string, edits: readonly { old_string: string; new_string: string; replace_all: boolean }[]): string | { kind: string } {
  let t = content;
  const written: string[] = [];
  for (const e of edits) {
    const probe = e.old_string.replace(/\n+$/, '');
    if (probe !== '' && written.some((w) => w.includes(probe))) return { kind: 'cascade' };
    const at: number[] = [];
    for (let i = t.indexOf(e.old_string); i !== -1; i = t.indexOf(e.old_string, i + e.old_string.length)) at.push(i);
    if (at.length === 0) return { kind: 'not-found' };
    if (at.length > 1 && !e.replace_all) return { kind: 'not-unique' };
    const takeNewline = e.new_string === '' && !e.old_string.endsWith('\n');
    let out = '';
    let prev = 0;
    at.forEach((i, k) => {
      let end = i + e.old_string.length;
      if (takeNewline && t[end] === '\n' && at[k + 1] !== end) end++;
      out += t.slice(prev, i) + e.new_string;
      prev = end;
    });
    out += t.slice(prev);
    if (out === t) return { kind: 'not-found' };
    t = out;
    written.push(e.new_string);
  }
  return t;
}
