// A linked worktree's admin folder (<common>/worktrees/<id>) made beside a native git that may undo
// it. `git worktree prune` (run by `git gc`) removes `.git/worktrees` when it is empty, and an admin
// folder that has neither a `gitdir` file nor a `locked` marker; it judges first and removes after,
// so a prune that judged before the folder was marked can still remove it, marker and all, a moment
// later. git's own `worktree add` has the same window. Here the folder is made, marked and filled,
// then checked whole; what a prune took is made again (as git's file creation does, raceproof.ts).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { errnoCode, gitError } from './errors.js';
import { raceproofCreate } from './raceproof.js';
import type { Repo } from './repo.js';
import { worktreeAdminRoot } from './worktree-admin.js';

export interface AdminDir {
  readonly id: string;
  readonly adminDir: string;
}

export interface AdminFiles {
  /** The worktree's folder (its `.git` file is written too). */
  readonly path: string;
  /** HEAD's content. */
  readonly head: string;
  /** The `locked` marker's content, written first. */
  readonly locked: string;
  /** Writes what else belongs in the folder (the index, once the files are checked out). */
  readonly more?: (adminDir: string) => void;
}

const TRIES = 8;
const FILES = ['locked', 'commondir', 'gitdir', 'HEAD'];

/** Claims an admin folder for `f.path` and writes its files; again, up to a few times, while a prune removes them. */
export function makeAdminDir(repo: Repo, f: AdminFiles, extra: readonly string[] = []): AdminDir {
  for (let tries = 0; ; tries++) {
    const admin = claim(repo, f.path, f.locked);
    try {
      writeFileSync(join(f.path, '.git'), `gitdir: ${admin.adminDir}\n`);
      writeFileSync(join(admin.adminDir, 'commondir'), '../..\n');
      writeFileSync(join(admin.adminDir, 'gitdir'), `${join(f.path, '.git')}\n`);
      writeFileSync(join(admin.adminDir, 'HEAD'), f.head);
      f.more?.(admin.adminDir);
      if (isWhole(admin.adminDir, extra)) return admin;
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') {
        dropAdminDir(admin.adminDir, f);
        throw err;
      }
    }
    dropAdminDir(admin.adminDir, f);
    if (tries >= TRIES) {
      throw gitError(
        'in-use',
        `The worktree folder ${admin.adminDir} was removed as it was made, again and again; stop \`git worktree prune\` and run again.`,
        {
          path: admin.adminDir,
        },
      );
    }
  }
}

/** Whether every file of the admin folder (and `extra`) is there. */
export function isWhole(adminDir: string, extra: readonly string[] = []): boolean {
  return [...FILES, ...extra].every((name) => existsSync(join(adminDir, name)));
}

/** Removes what is left of our admin folder; one that another worktree took meanwhile is left alone. */
export function dropAdminDir(adminDir: string, f: AdminFiles): void {
  const read = (name: string) => {
    try {
      return readFileSync(join(adminDir, name), 'utf8');
    } catch {
      return null;
    }
  };
  const gitdir = read('gitdir');
  const locked = read('locked');
  if ((gitdir === null || gitdir === `${join(f.path, '.git')}\n`) && (locked === null || locked === f.locked))
    rmSync(adminDir, { recursive: true, force: true });
}

/** Makes the folder (mkdir: atomic, so two worktrees never share an id) and its `locked` marker. */
function claim(repo: Repo, path: string, locked: string): AdminDir {
  const root = worktreeAdminRoot(repo);
  // Like git: the folder's name, made safe as a ref component, with a counter when taken.
  const base =
    basename(path)
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^\.+/, '')
      .replace(/\.lock$/, '') || 'worktree';
  for (let n = 0, pruned = 0; ;) {
    const id = n === 0 ? base : `${base}${n}`;
    const adminDir = join(root, id);
    try {
      raceproofCreate(root, () => mkdirSync(adminDir));
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
      n++;
      continue;
    }
    try {
      writeFileSync(join(adminDir, 'locked'), locked, { flag: 'wx' });
      return { id, adminDir };
    } catch (err) {
      const code = errnoCode(err);
      // Taken by another worktree after a prune removed ours: the next name.
      if (code === 'EEXIST') n++;
      // Pruned before it was marked: claimed again.
      else if (code !== 'ENOENT' || ++pruned > TRIES) throw err;
    }
  }
}
