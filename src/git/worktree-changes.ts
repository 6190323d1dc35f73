// What changed in a worktree relative to a base tree: modified and mode-changed files, new files
// that no .gitignore excludes, and deleted files. The worktree's index is used as git uses it, as
// a stat cache: a file whose stat data still matches its index entry (and is not "racily clean")
// is taken as unchanged without reading it.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { breather } from './breather.js';
import { hashBlob } from './hash.js';
import { IgnoreRules } from './ignore.js';
import { readIndexFile, statData, type IndexEntry, type IndexFile, type StatData } from './index-file.js';
import type { TreeEntry } from './list-tree.js';
import { parentDir } from './paths.js';
import type { Repo } from './repo.js';
import type { Worktree } from './worktree-admin.js';
import { worktreeCleaner, type CleanFilter } from './worktree-clean.js';

/** A changed path's new content and mode as `git add` would store them, or null when it was deleted. */
export type WorktreeChange = { bytes: Uint8Array; mode: string } | null;

export async function worktreeChanges(repo: Repo, wt: Worktree, base: readonly TreeEntry[]): Promise<Map<string, WorktreeChange>> {
  const baseMap = new Map(base.map((e) => [e.path, e]));
  const baseDirs = new Set<string>();
  for (const e of base) for (let d = parentDir(e.path); d !== '' && !baseDirs.has(d); d = parentDir(d)) baseDirs.add(d);
  const index = readIndexFile(join(wt.adminDir, 'index'));
  const seen = new Set<string>();
  const out = new Map<string, WorktreeChange>();
  const pause = breather();
  // Bytes are taken as `git add` would store them (core.autocrlf, .gitattributes text/eol).
  const clean = worktreeCleaner(repo, wt.path);
  let rules = IgnoreRules.empty();
  const exclude = readText(join(repo.commonDir, 'info', 'exclude'));
  if (exclude !== null) rules = rules.with(exclude, '');

  const walk = async (dir: string, inherited: IgnoreRules, parentIgnored: boolean): Promise<void> => {
    const absDir = dir === '' ? wt.path : join(wt.path, dir);
    const dirents = readdirSync(absDir, { withFileTypes: true });
    let here = inherited;
    if (dirents.some((d) => d.name === '.gitignore' && !d.isDirectory())) {
      const text = readText(join(absDir, '.gitignore'));
      if (text !== null) here = here.with(text, dir);
    }
    for (const d of dirents) {
      // `.git` is never content: the worktree's own link file, or a nested repository's.
      if (d.name === '.git') continue;
      const rel = dir === '' ? d.name : `${dir}/${d.name}`;
      const tracked = baseMap.get(rel);
      if (tracked?.mode === '160000') {
        seen.add(rel);
        continue;
      }
      if (d.isDirectory()) {
        const abs = join(absDir, d.name);
        // An untracked nested repository is not ours to commit (git shows it as one entry).
        if (!baseDirs.has(rel) && existsSync(join(abs, '.git'))) continue;
        const ignored = parentIgnored || here.ignored(rel, true);
        if (ignored && !baseDirs.has(rel)) continue;
        await walk(rel, here, ignored);
      } else if (d.isFile() || d.isSymbolicLink()) {
        const abs = join(absDir, d.name);
        if (tracked) {
          seen.add(rel);
          const changed = trackedChange(abs, tracked, index, clean);
          if (changed) out.set(rel, changed);
        } else if (!parentIgnored && !here.ignored(rel, false)) {
          out.set(rel, readState(abs, lstatSync(abs, { bigint: true }), rel, null, clean));
        }
      }
      const p = pause();
      if (p) await p;
    }
  };
  await walk('', rules, false);
  for (const e of base) if (e.mode !== '160000' && !seen.has(e.path)) out.set(e.path, null);
  return out;
}

/** The file's new state when it differs from `tracked`, else null. */
function trackedChange(abs: string, tracked: TreeEntry, index: IndexFile | null, clean: CleanFilter): WorktreeChange {
  const st = lstatSync(abs, { bigint: true });
  const mode = diskMode(st);
  const entry = index?.entries.get(tracked.path);
  if (entry && index && entry.oid === tracked.oid && mode === tracked.mode && entry.mode === parseInt(mode, 8)) {
    if (statMatches(entry, statData(st)) && st.mtimeNs < index.mtimeNs) return null;
  }
  const state = readState(abs, st, tracked.path, tracked.oid, clean);
  return state.mode !== tracked.mode || hashBlob(state.bytes) !== tracked.oid ? state : null;
}

export function diskMode(st: BigIntStats): string {
  if (st.isSymbolicLink()) return '120000';
  return st.mode & 0o100n ? '100755' : '100644';
}

function readState(abs: string, st: BigIntStats, path: string, baseOid: string | null, clean: CleanFilter): { bytes: Uint8Array; mode: string } {
  const bytes = st.isSymbolicLink() ? readlinkSync(abs, { encoding: 'buffer' }) : clean(path, readFileSync(abs), baseOid);
  return { bytes, mode: diskMode(st) };
}

/** The fields git's ce_match_stat compares (dev only when built with USE_STDEV, which Linux is not). */
export function statMatches(entry: IndexEntry, s: StatData): boolean {
  const e = entry.stat;
  return (
    e.mtimeSec === s.mtimeSec &&
    e.mtimeNsec === s.mtimeNsec &&
    e.ctimeSec === s.ctimeSec &&
    e.ctimeNsec === s.ctimeNsec &&
    e.size === s.size &&
    e.ino === s.ino &&
    e.uid === s.uid &&
    e.gid === s.gid
  );
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
