// Globs in bounded time, with picomatch's meaning. Properties: on random globs of every feature
// recipes use (and regex groups a glob may carry), the state machine and the one matcher recipes go
// through (globTest) answer what picomatch's own expression answers, under both dot rules. Bounds:
// patterns that make V8 backtrack for minutes finish with the right answer (no clock is read: a
// regression shows as a test that never ends).
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileMachine } from '../../src/recipe/glob-machine.js';
import { globProblem, globTest, matcher } from '../../src/recipe/globs.js';

const RUNS = { numRuns: 400 };

// Pieces of globs: literals (dots and dashes included), separators, every wildcard, classes, braces,
// extglobs, escapes and the regex groups picomatch passes through.
const piece = fc.constantFrom(
  'a',
  'b',
  'c',
  '.',
  '-',
  'ab',
  '.a',
  '/',
  '/',
  '/',
  '*',
  '*',
  '**',
  '**/',
  '/**',
  '?',
  '[ab]',
  '[a-c]',
  '[^a]',
  '[[:alpha:]]',
  '[.]',
  '{a,b}',
  '{a,b/c}',
  '{,a}',
  '{1..3}',
  '{a,{b,c}}',
  '@(a|b)',
  '+(a|b)',
  '*(a)',
  '?(a)',
  '!(a)',
  '!(*.a)',
  '\\*',
  '\\?',
  '(a|b)',
  '(a)',
);
const glob = fc.tuple(fc.boolean(), fc.array(piece, { minLength: 1, maxLength: 6 })).map(([negated, parts]) => (negated ? '!' : '') + parts.join(''));
const segment = fc.array(fc.constantFrom('a', 'b', 'c', '.', '-', '1', 'ab', '.a', '*'), { minLength: 0, maxLength: 3 }).map((s) => s.join(''));
const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));

function picomatchSays(g: string, p: string, dot: boolean): boolean {
  const re = picomatch.makeRe(g, { dot });
  return new RegExp(re.source, `${re.flags}s`).test(p);
}

describe('glob matching against picomatch', () => {
  it('the state machine answers as picomatch’s expression does, for every dot rule', () => {
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 8 }), fc.boolean(), (g, paths, dot) => {
        const machine = compileMachine(picomatch.makeRe(g, { dot }).source, g);
        for (const p of paths) expect(machine.test(p), `${g} on ${p} (dot: ${dot})`).toBe(picomatchSays(g, p, dot));
      }),
      RUNS,
    );
  });

  it('globTest, the matcher every glob user goes through, answers the same', () => {
    fc.assert(
      fc.property(fc.array(glob, { minLength: 1, maxLength: 3 }), fc.array(path, { minLength: 1, maxLength: 8 }), fc.boolean(), (globs, paths, dot) => {
        const test = globTest(globs, { dot });
        for (const p of paths) expect(test(p), `${globs.join(' | ')} on ${p}`).toBe(globs.some((g) => picomatchSays(g, p, dot)));
      }),
      RUNS,
    );
  });

  it('keeps what recipes rely on: dotfiles under dot, ** spanning folders, braces, negation, newlines in paths', () => {
    const m = (g: string, p: string) => globTest([g], { dot: true })(p);
    expect(m('src/**/*.ts', 'src/a/.b/c.ts')).toBe(true);
    expect(m('src/**', 'src')).toBe(true);
    expect(m('**/*.lock', 'yarn.lock')).toBe(true);
    expect(m('*.{js,ts}', 'a.ts')).toBe(true);
    expect(m('!src/**', 'lib/a.ts')).toBe(true);
    expect(m('!src/**', 'src/a.ts')).toBe(false);
    expect(m('src/*', 'src/a\nb.ts')).toBe(true);
    expect(m('packages/pkg[0-3]', 'packages/pkg2')).toBe(true);
    expect(globTest(['packages/*'], { dot: false })('packages/.hidden')).toBe(false);
  });
});

describe('glob matching in bounded time', () => {
  const deep = `${'a/'.repeat(60)}x.ts`;

  it('repeated a/**/ over a deep path: the answer, not a hang', () => {
    const globs = (tail: string) => [`${'a/**/'.repeat(40)}${tail}`];
    expect(matcher({ include: globs('x.ts'), exclude: [] })(deep)).toBe(true);
    expect(matcher({ include: globs('y.ts'), exclude: [] })(deep)).toBe(false);
    expect(matcher({ include: ['**'], exclude: globs('y.ts') })(deep)).toBe(true);
  });

  it('many stars in one segment, and a nested group a glob carries', () => {
    const name = 'a'.repeat(80);
    expect(globTest([`${'*a'.repeat(30)}b`], { dot: true })(name)).toBe(false);
    expect(globTest([`${'*a'.repeat(30)}`], { dot: true })(name)).toBe(true);
    expect(globTest(['(a+)+b'], { dot: true })(name)).toBe(false);
    expect(globTest(['(a|aa)+b'], { dot: true })(name)).toBe(false);
    expect(globTest(['(a|aa)+'], { dot: true })(name)).toBe(true);
    expect(globTest([`${'{a,a}'.repeat(40)}b`], { dot: true })('a'.repeat(40))).toBe(false);
    expect(globTest([`${'**/!(*.d).ts/'.repeat(20)}x`], { dot: true })(`${'a.ts/'.repeat(30)}y`)).toBe(false);
  });

  it('refuses a glob that carries a back-reference or a lookbehind, in one sentence naming it', () => {
    expect(globProblem('(a)\\1')).toMatch(/"\(a\)\\\\1" holds a back-reference/);
    expect(globProblem('(?<=a)b')).toMatch(/lookbehind/);
    expect(globProblem('src/**/*.ts')).toBeNull();
    expect(() => globTest(['(a)\\1'], { dot: true })).toThrow(expect.objectContaining({ kind: 'bad-glob' }));
  });
});
