// A dry run may still have to run commands, but must not write a worktree into .git. It gets a plain
// copy of the base tree in a temporary folder instead, and finds what a command changed by comparing
// each file's stat with the one recorded at copy time (and its bytes where the stat moved).
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkStopped, hashBlob, readBlob, worktreeCleaner, type Repo, type TreeEntry } from '../git/index.js';
import { DiskWorkspace } from './disk.js';
import type { FileState } from './types.js';

const PARALLEL = 32;

/** `signal` stops the copy between batches (kind `interrupted`): the folder is removed. */
export async function createScratchWorkspace(repo: Repo, base: ReadonlyMap<string, TreeEntry>, signal?: AbortSignal): Promise<DiskWorkspace> {
  const root = await mkdtemp(join(tmpdir(), 'scion-plan-'));
  const stats = new Map<string, string>();
  const entries = [...base.values()];
  try {
    for (let i = 0; i < entries.length; i += PARALLEL) {
      checkStopped(signal, `The copy of the base tree into ${root}`, { done: i, total: entries.length });
      await Promise.all(
        entries.slice(i, i + PARALLEL).map(async (e) => {
          const file = join(root, e.path);
          await mkdir(dirname(file), { recursive: true });
          if (e.mode === '160000') return mkdir(file, { recursive: true });
          const bytes = await readBlob(repo, e.oid);
          if (e.mode === '120000') await symlink(Buffer.from(bytes).toString('utf8'), file);
          else await writeFile(file, bytes, { mode: e.mode === '100755' ? 0o755 : 0o644 });
          stats.set(e.path, statKey(await lstat(file)));
        }),
      );
    }
  } catch (e) {
    // Stopped or failed half way: no half copy is left in the temp folder.
    await rm(root, { recursive: true, force: true });
    throw e;
  }
  const scan = async (): Promise<Map<string, FileState | null>> => {
    const clean = worktreeCleaner(repo, root);
    const out = new Map<string, FileState | null>();
    const seen = new Set<string>();
    for (const path of await walk(root)) {
      seen.add(path);
      const file = join(root, path);
      const st = await lstat(file);
      const entry = base.get(path);
      if (entry && stats.get(path) === statKey(st)) continue;
      const mode = st.isSymbolicLink() ? '120000' : st.mode & 0o111 ? '100755' : '100644';
      const bytes = st.isSymbolicLink()
        ? new Uint8Array(Buffer.from(await readlink(file)))
        : clean(path, new Uint8Array(await readFile(file)), entry?.oid ?? null);
      if (entry && entry.mode === mode && hashBlob(bytes) === entry.oid) continue;
      out.set(path, { bytes, mode });
    }
    for (const [path, e] of base) if (!seen.has(path) && e.mode !== '160000') out.set(path, null);
    return out;
  };
  return new DiskWorkspace(root, repo, base, scan, async () => {
    await rm(root, { recursive: true, force: true });
  });
}

function statKey(st: { mtimeMs: number; size: number; ino: number; mode: number }): string {
  return `${st.mtimeMs}:${st.size}:${st.ino}:${st.mode}`;
}

/** Every file and symlink under root, as POSIX paths relative to it; submodule folders stay opaque. */
async function walk(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(join(root, rel), { withFileTypes: true })) {
    const path = rel === '' ? d.name : `${rel}/${d.name}`;
    if (d.isDirectory()) {
      if (d.name === '.git') continue;
      out.push(...(await walk(root, path)));
    } else out.push(path);
  }
  return out;
}
