// The library API of code owners, imported as a program would (the package's own name): the CODEOWNERS
// of a commit as a host reads it, asked about paths.
import { describe, expect, it } from 'vitest';
import { codeownersFor, ownersAt, UsageError } from 'scion-codemod';
import { cleanupAfterEach } from '../support/cleanups.js';
import { gitRepo } from '../support/git-repo.js';

const cleanups = cleanupAfterEach();

describe('codeownersFor and ownersOf', () => {
  it('reads the CODEOWNERS of a ref, not of the checkout, and answers each path with its owners and rules', async () => {
    const r = await gitRepo({ 'docs/CODEOWNERS': '* @acme/core\n/web/ @acme/web\n' });
    cleanups.push(r.cleanup);
    const first = r.head();
    r.git('mv', 'docs/CODEOWNERS', 'CODEOWNERS');
    r.git('commit', '-qm', 'move');
    const co = await codeownersFor(r.dir, first, 'github');
    expect(co?.file).toBe('docs/CODEOWNERS');
    expect(co!.ownersOf(['web/a.ts', 'b.ts'])).toEqual([
      { path: 'web/a.ts', owners: ['@acme/web'], rules: [{ line: 2, pattern: '/web/', section: null }] },
      { path: 'b.ts', owners: ['@acme/core'], rules: [{ line: 1, pattern: '*', section: null }] },
    ]);
    expect((await codeownersFor(r.dir, 'HEAD', 'gitlab'))?.file).toBe('CODEOWNERS');
    // A repository without an origin reads it as GitHub does by default.
    expect((await codeownersFor(r.dir))?.dialect).toBe('github');
  });

  it('undefined without a CODEOWNERS file; a ref that is no commit is a UsageError', async () => {
    const r = await gitRepo({ 'a.ts': 'a\n' });
    cleanups.push(r.cleanup);
    expect(await codeownersFor(r.dir, 'HEAD', 'github')).toBeUndefined();
    expect(await ownersAt({ repo: r.dir, dialect: 'gitlab' })).toEqual({
      ok: false,
      dialect: 'gitlab',
      base: 'HEAD',
      locations: ['CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'],
    });
    await expect(codeownersFor(r.dir, 'nope', 'github')).rejects.toBeInstanceOf(UsageError);
  });
});
