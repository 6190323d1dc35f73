// The workspaces' own last line of defence: whoever calls write(), a path the one validator refuses
// never reaches the disk (a `../` joined to a worktree's folder would land outside it) or the overlay.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScionError } from '../../src/errors.js';
import { listTree, openRepo, treeOfCommit } from '../../src/git/index.js';
import { ObjectWorkspace } from '../../src/workspace/objects.js';
import { createScratchWorkspace } from '../../src/workspace/scratch.js';
import { reposAfterEach } from '../support/cleanups.js';

const repo = reposAfterEach();

describe('workspace writes', () => {
  it('refuse paths outside the tree or aliasing .git, in both workspaces, and write nothing', async () => {
    const r = await repo({ 'src/a.ts': 'a\n' });
    const g = await openRepo(r.dir);
    const entries = new Map((await listTree(g, await treeOfCommit(g, r.head()))).map((e) => [e.path, e]));
    const disk = await createScratchWorkspace(g, entries);
    const escaped = `escaped-${basename(disk.root)}.txt`;
    const objects = new ObjectWorkspace(g, entries);
    try {
      for (const ws of [disk, objects]) {
        for (const bad of [`../${escaped}`, `src/../../${escaped}`, '.git./hooks/x', 'git~1/config', '/abs.txt']) {
          const err = await ws.write(bad, new Uint8Array([120])).then(
            () => null,
            (e: unknown) => e,
          );
          expect(err, bad).toBeInstanceOf(ScionError);
          expect((err as ScionError).kind, bad).toBe('outside');
        }
        expect(ws.changes().size).toBe(0);
      }
      expect(existsSync(join(disk.root, '..', escaped))).toBe(false);
      expect(existsSync(join(disk.root, '.git.'))).toBe(false);
      await disk.write('src/ok.ts', new Uint8Array([120]));
      expect([...disk.changes().keys()]).toEqual(['src/ok.ts']);
    } finally {
      await disk.dispose(false);
    }
  });
});
