// Several jobs of one run share one Repo (one object store) and run at once, as the runner's
// p-queue runs them: each checks out, edits, commits at object level and moves its own branch.
import { readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import {
  addWorktree,
  treeOfCommit,
  listTree,
  openRepo,
  removeWorktree,
  setWorktreeHead,
  updateRef,
  worktreeChanges,
  writeBlob,
  writeCommit,
  writeTreeWith,
  type TreeChange,
} from '../../src/git/index.js';
import { gitRepo, runGit, type TestRepo } from '../support/git-repo.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

it('runs four jobs at once on one Repo: each branch gets exactly its own change, git fsck is clean', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) files[`pkg${i % 4}/src/f${i}.ts`] = `export const v${i} = ${i};\n`;
  const r: TestRepo = await gitRepo(files, { packed: true });
  cleanups.push(r.cleanup);
  const scratch = mkdtempSync(join(tmpdir(), 'scion-jobs-'));
  cleanups.push(async () => rmSync(scratch, { recursive: true, force: true }));
  const g = await openRepo(r.dir);
  const base = r.head();
  const entries = await listTree(g, await treeOfCommit(g, base));

  const job = async (k: number): Promise<string> => {
    const wt = await addWorktree(g, { path: join(scratch, `job${k}`), commit: base, entries });
    for (let i = k; i < 200; i += 4) {
      const p = join(wt.path, `pkg${k}/src/f${i}.ts`);
      writeFileSync(p, readFileSync(p, 'utf8').replace(' = ', ` = /* job ${k} */ `));
    }
    const changes = await worktreeChanges(g, wt, entries);
    const tree = new Map<string, TreeChange>();
    for (const [p, s] of changes) tree.set(p, s && { oid: await writeBlob(g, s.bytes), mode: s.mode });
    const treeOid = await writeTreeWith(g, await treeOfCommit(g, base), tree);
    const sha = await writeCommit(g, { tree: treeOid, parents: [base], message: `job ${k}`, author: { name: 'scion', email: 's@l' } });
    await updateRef(g, `refs/heads/scion/job${k}`, sha, null);
    await setWorktreeHead(g, wt, { branch: `scion/job${k}`, commit: sha, entries: await listTree(g, treeOid) });
    expect(runGit(wt.path, 'status', '--porcelain')).toBe('');
    await removeWorktree(g, wt);
    return sha;
  };
  const shas = await Promise.all([0, 1, 2, 3].map(job));

  for (const [k, sha] of shas.entries()) {
    const changed = r.git('diff', '--name-only', base, sha).split('\n');
    expect(changed).toHaveLength(50);
    expect(changed.every((p) => p.startsWith(`pkg${k}/`))).toBe(true);
    expect(r.git('rev-parse', `scion/job${k}`)).toBe(sha);
  }
  expect(r.git('worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
  expect(r.head()).toBe(base);
  expect(r.git('status', '--porcelain')).toBe('');
  r.git('fsck', '--strict', '--no-dangling');
});
