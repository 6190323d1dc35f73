// Property tests of the split: whatever the rules (valid or not, either dialect) and whatever the paths,
// every changed file is in exactly one piece, the pieces do not depend on the order of the paths, each
// piece's files share its owners, names are unique branch-name parts, and no piece exceeds maxFiles.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitByOwners, type Codeowners, type Piece } from '../../src/owners/index.js';
import { github, gitlab } from './helpers.js';

const RUNS = { numRuns: 300 };

const name = fc.constantFrom('a', 'b', 'ab', 'a.md', 'b.ts', '.x', 'c', 'Docs', 'docs');
const path = fc.array(name, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const patternText = fc
  .tuple(
    fc.constantFrom('', '/', '!', '\\#'),
    fc.array(fc.oneof(name, fc.constantFrom('*', '**', '*.md', '?', '[ab]', 'a*')), { minLength: 1, maxLength: 3 }),
    fc.constantFrom('', '/'),
  )
  .map(([lead, segs, trail]) => `${lead}${segs.join('/')}${trail}`);
const owner = fc.constantFrom('@alice', '@Alice', '@bob', '@acme/web', '@other/web', 'dev@example.com', '@@maintainer', 'oops', '#note');
const rule = fc.tuple(patternText, fc.array(owner, { maxLength: 3 })).map(([p, os]) => [p, ...os].join(' '));
const header = fc.constantFrom('[Docs]', '[DOCS] @bob', '^[Web][2] @acme/web', '[Unclosed', '[]', '# comment', '');
const githubText = fc.array(fc.oneof(rule, fc.constantFrom('# comment', '')), { maxLength: 12 }).map((ls) => ls.join('\n'));
const gitlabText = fc.array(fc.oneof({ weight: 3, arbitrary: rule }, { weight: 1, arbitrary: header }), { maxLength: 14 }).map((ls) => ls.join('\n'));
const engine = fc.oneof(githubText.map(github), gitlabText.map(gitlab));
const maxFiles = fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined });

const ownerSet = (owners: readonly string[]) => [...new Set(owners.map((o) => o.toLowerCase()))].sort().join('\n');
const split = (paths: readonly string[], co: Codeowners, max: number | undefined): Piece[] =>
  splitByOwners(paths, co, max === undefined ? {} : { maxFiles: max });

describe('pieces: properties', () => {
  it('every changed file is in exactly one piece, whatever the rules', () => {
    fc.assert(
      fc.property(engine, fc.array(path, { maxLength: 30 }), maxFiles, (co, paths, max) => {
        const pieces = split(paths, co, max);
        const placed = pieces.flatMap((p) => p.files);
        expect([...placed].sort()).toEqual([...new Set(paths)].sort());
        expect(new Set(placed).size).toBe(placed.length);
        for (const p of pieces) expect(p.files.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it('the pieces are the same whatever the order of the paths (and repeats)', () => {
    const shuffled = fc
      .array(path, { maxLength: 30 })
      .chain((paths) => fc.tuple(fc.constant(paths), fc.shuffledSubarray(paths, { minLength: paths.length, maxLength: paths.length }), fc.subarray(paths)));
    fc.assert(
      fc.property(engine, shuffled, maxFiles, (co, [paths, permuted, repeats], max) => {
        expect(split([...permuted, ...repeats], co, max)).toEqual(split(paths, co, max));
      }),
      RUNS,
    );
  });

  it("each piece's files have exactly its owners, and one owner set is cut only when it exceeds maxFiles", () => {
    fc.assert(
      fc.property(engine, fc.array(path, { maxLength: 30 }), maxFiles, (co, paths, max) => {
        const pieces = split(paths, co, max);
        const perSet = new Map<string, Piece[]>();
        for (const p of pieces) {
          const key = ownerSet(p.owners);
          for (const f of p.files) expect(ownerSet(co.ownerOf(f).owners), f).toBe(key);
          perSet.set(key, [...(perSet.get(key) ?? []), p]);
        }
        for (const group of perSet.values()) {
          const size = group.reduce((n, p) => n + p.files.length, 0);
          if (group.length > 1) {
            expect(max !== undefined && size > max).toBe(true);
            for (const p of group) expect(p.directory).not.toBeNull();
          } else {
            expect(group[0]?.directory).toBeNull();
          }
        }
      }),
      RUNS,
    );
  });

  it('names are unique branch-name parts: a slug of at most 40 characters, then a hash part when needed; no piece exceeds maxFiles', () => {
    fc.assert(
      fc.property(engine, fc.array(path, { maxLength: 30 }), maxFiles, (co, paths, max) => {
        const pieces = split(paths, co, max);
        expect(new Set(pieces.map((p) => p.name)).size).toBe(pieces.length);
        for (const p of pieces) {
          expect(p.name).toMatch(/^[a-z0-9_][a-z0-9_+-]{0,39}(?:-[0-9a-f]{8,64})?$/);
          expect(p.name).not.toMatch(/[-+]$/);
          if (max !== undefined) expect(p.files.length).toBeLessThanOrEqual(max);
        }
      }),
      RUNS,
    );
  });

  it('reading any text and asking about any path never throws, and owners come from the deciding rules', () => {
    fc.assert(
      fc.property(fc.oneof(githubText, gitlabText, fc.string()), fc.constantFrom('github', 'gitlab'), fc.oneof(path, fc.string()), (text, dialect, p) => {
        const co = dialect === 'github' ? github(text) : gitlab(text);
        const answer = co.ownerOf(p);
        const byLine = new Map(co.rules.map((r) => [r.line, r]));
        const fromRules = answer.rules.flatMap((r) => byLine.get(r.line)?.owners ?? []).map((o) => o.toLowerCase());
        for (const o of answer.owners) expect(fromRules).toContain(o.toLowerCase());
        if (dialect === 'github') expect(answer.rules.length).toBeLessThanOrEqual(1);
      }),
      RUNS,
    );
  });
});
