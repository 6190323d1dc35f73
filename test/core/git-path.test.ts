// The one path validator (No path git would refuse): git's verify_path and fsck rules,
// the NTFS and HFS+ aliases of .git, and the symlink rules for .gitmodules; every other byte allowed.
import { describe, expect, it } from 'vitest';
import { checkPath, gitPathProblem } from '../../src/core/index.js';
import { isHfsDot, isNtfsDotGeneric, isNtfsDotGit } from '../../src/core/git-path.js';
import { failed } from './helpers.js';
import { KNOWN_BAD, KNOWN_BAD_SYMLINKS, KNOWN_GOOD } from './paths.js';

describe('gitPathProblem', () => {
  it('refuses every known .git alias, dot component, empty component, NUL and lone surrogate', () => {
    for (const p of KNOWN_BAD) {
      expect(gitPathProblem(p, '100644'), JSON.stringify(p)).not.toBeNull();
      expect(gitPathProblem(p, '120000'), JSON.stringify(p)).not.toBeNull();
    }
  });

  it('refuses .gitmodules and its NTFS/HFS+ spellings as symlinks only', () => {
    for (const p of KNOWN_BAD_SYMLINKS) {
      expect(gitPathProblem(p, '120000'), JSON.stringify(p)).not.toBeNull();
      expect(gitPathProblem(p, '100644'), JSON.stringify(p)).toBeNull();
    }
  });

  it('accepts any other byte: newlines, tabs, spaces, backslashes, colons, Unicode', () => {
    for (const p of KNOWN_GOOD) {
      expect(gitPathProblem(p, '100644'), JSON.stringify(p)).toBeNull();
      expect(gitPathProblem(p, '100755'), JSON.stringify(p)).toBeNull();
    }
  });

  it('ports path.c and utf8.c literally', () => {
    expect(isNtfsDotGit('.git')).toBe(true);
    expect(isNtfsDotGit('.git\\x')).toBe(true);
    expect(isNtfsDotGit('.gitx')).toBe(false);
    expect(isNtfsDotGit('git~1 . ')).toBe(true);
    expect(isNtfsDotGit('git~1a')).toBe(false);
    expect(isHfsDot('.\u200dG\u200cI\ufeffT\u206a', 'git')).toBe(true);
    expect(isHfsDot('.git.', 'git')).toBe(false);
    // The Kelvin sign lower-cases to "k" in Unicode, but git folds ASCII only.
    expect(isHfsDot('.mailma\u212a', 'mailmap')).toBe(false);
    expect(isNtfsDotGeneric('.gitmodules', 'gitmodules', 'gi7eba')).toBe(true);
    expect(isNtfsDotGeneric('.gitmodulesx', 'gitmodules', 'gi7eba')).toBe(false);
    expect(isNtfsDotGeneric('gitmod~5', 'gitmodules', 'gi7eba')).toBe(false);
    expect(isNtfsDotGeneric('gi7eba~5', 'gitmodules', 'gi7eba')).toBe(true);
    expect(isNtfsDotGeneric('gi7ebax~1', 'gitmodules', 'gi7eba')).toBe(false);
  });
});

describe('checkPath', () => {
  it("refuses git's refusals with kind 'outside', naming the path visibly", () => {
    for (const p of [...KNOWN_BAD.filter((p) => !p.startsWith('//')), '.git./hooks/x']) {
      expect(failed(checkPath(p)).kind, JSON.stringify(p)).toBe('outside');
    }
    const f = failed(checkPath('.g\u200dit/config'));
    expect(f.message).toContain('\\u200d');
  });

  it('refuses a symlink named .gitmodules, and takes other paths literally', () => {
    expect(failed(checkPath('gitmod~1', { mode: '120000' })).kind).toBe('outside');
    for (const p of KNOWN_GOOD.filter((p) => !/^[A-Za-z]:/.test(p))) expect(checkPath(p), JSON.stringify(p)).toEqual({ ok: true, value: p });
  });

  it('checks git rules before deny rules', () => {
    expect(failed(checkPath('.git./x', { isDenied: () => true })).kind).toBe('outside');
    expect(failed(checkPath('a\nb', { isDenied: () => true })).kind).toBe('denied');
  });
});
