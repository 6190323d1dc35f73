// Patterns that make a backtracking regular expression run for hours: the matchers go through scion's one
// glob machine, so these finish (vitest's own timeout fails the test if they did not) with the right answer.
import { describe, expect, it } from 'vitest';
import { file, github, gitlab, ownersOf } from './helpers.js';

const deep = `${Array.from({ length: 60 }, () => 'a').join('/')}/c`;
const many = `${'**/a/'.repeat(12)}b`;
const stars = `/${'*a'.repeat(25)}*b`;
const longName = 'a'.repeat(4000);

describe('hostile patterns finish', () => {
  it('GitHub: a pattern of many `**/a` segments over a 60-folder path that does not match', () => {
    const co = github(file('* @default', `/${many} @evil`));
    expect(ownersOf(co, deep)).toEqual(['@default']);
    // And the same pattern still matches where it should.
    expect(ownersOf(co, `${'a/'.repeat(12)}b`)).toEqual(['@evil']);
  });

  it('GitHub: twenty-five `*a` in one segment over a 4000-character name', () => {
    const co = github(file('* @default', `${stars} @evil`));
    expect(ownersOf(co, longName)).toEqual(['@default']);
    expect(ownersOf(co, `${'a'.repeat(25)}b`)).toEqual(['@evil']);
  });

  it('GitLab: the same patterns, read through its fnmatch rules', () => {
    const co = gitlab(file('* @default', `/${many} @evil`, `${stars} @evil`));
    expect(ownersOf(co, deep)).toEqual(['@default']);
    expect(ownersOf(co, longName)).toEqual(['@default']);
    expect(ownersOf(co, `${'a/'.repeat(12)}b`)).toEqual(['@evil']);
  });
});
