// A change divided by owner: one piece per set of owners (files no rule owns form the piece `unowned`),
// each named by a slug of its owners, so each can go on its own branch and to its owners for review.
// Pure and deterministic: the same paths and owners give the same pieces and names in any order.
import { createHash } from 'node:crypto';
import { usageError } from '../errors.js';
import { ownerKey } from './owner-names.js';
import type { Codeowners } from './types.js';
import { compareCodeUnits } from '../util/compare.js';

export interface Piece {
  /** Unique among the pieces: the owners' slug (at most 40 characters), then `-` and a hash part when needed. */
  readonly name: string;
  /** The owners every file of the piece has (sorted; empty for `unowned`). */
  readonly owners: readonly string[];
  /** Sorted. */
  readonly files: readonly string[];
  /** For a piece cut out of a larger one by `maxFiles`: the deepest folder holding all its files ('' for the root). */
  readonly directory: string | null;
}

export interface SplitOptions {
  /** A piece with more files is cut by directory into pieces of at most this many. Default: no limit. */
  readonly maxFiles?: number;
}

const SLUG_MAX = 40;
const HASH_LENGTHS = [8, 12, 16, 64];

/**
 * Divide changed paths by their owners. Every path lands in exactly one piece; a path given twice counts
 * once. Without a CODEOWNERS file (`codeowners` undefined), every path is in the piece `unowned`.
 *
 * @example
 *   splitByOwners(['web/a.ts', 'api/b.ts', 'README.md'], codeowners, { maxFiles: 40 })
 *   // [{ name: 'team-api', owners: ['@acme/team-api'], ... }, { name: 'team-web', ... }, { name: 'unowned', ... }]
 */
export function splitByOwners(paths: readonly string[], codeowners: Pick<Codeowners, 'ownerOf'> | undefined, options: SplitOptions = {}): Piece[] {
  const max = options.maxFiles;
  if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
    throw usageError(`split.maxFiles must be a whole number of at least 1, not ${String(max)}.`);
  }
  const groups = new Map<string, { owners: Map<string, string>; files: string[] }>();
  for (const path of [...new Set(paths)].sort(compareCodeUnits)) {
    const spellings = new Map<string, string>();
    for (const o of codeowners?.ownerOf(path).owners ?? []) spellings.set(ownerKey(o), o);
    const key = [...spellings.keys()].sort(compareCodeUnits).join('\n');
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { owners: new Map(), files: [] }));
    group.files.push(path);
    // One spelling per owner whatever the order of the paths: the smallest.
    for (const [k, o] of spellings) {
      const had = group.owners.get(k);
      if (had === undefined || o < had) group.owners.set(k, o);
    }
  }

  const drafts: Draft[] = [];
  for (const [key, group] of groups) {
    const owners = [...group.owners.values()].sort(compareCodeUnits);
    const slug = slugOf(owners);
    const chunks = max === undefined || group.files.length <= max ? [group.files] : cutByDirectory(group.files, 0, max);
    if (chunks.length === 1) {
      drafts.push({ key, owners, slug, files: group.files, directory: null, hashInput: key });
      continue;
    }
    // A cut piece is hashed by its folder, so a rerun over a slightly different change keeps its name;
    // pieces of one owner set that share a folder are told apart by their first file.
    const dirs = chunks.map(commonDirectory);
    chunks.forEach((files, i) => {
      const directory = dirs[i] as string;
      const shared = dirs.filter((d) => d === directory).length > 1;
      drafts.push({ key, owners, slug, files, directory, hashInput: `${key}\0${directory}${shared ? `\0${files[0] as string}` : ''}` });
    });
  }
  return nameDrafts(drafts).sort((a, b) => compareCodeUnits(a.name, b.name));
}

interface Draft {
  readonly key: string;
  readonly owners: readonly string[];
  readonly slug: string;
  readonly files: readonly string[];
  /** Set when a cut was made. */
  readonly directory: string | null;
  readonly hashInput: string;
}

/**
 * Names: the slug alone when no other owner set shares it and no cut was made; else slug, `-`, and a part
 * of a hash of the owner set (and, for a cut piece, of its folder). Every piece that shares a slug gets the
 * hash, so the name does not depend on which one came first; a hash part is lengthened in the unlikely
 * case two names still agree.
 */
function nameDrafts(drafts: readonly Draft[]): Piece[] {
  const setsPerSlug = new Map<string, Set<string>>();
  for (const d of drafts) setsPerSlug.set(d.slug, (setsPerSlug.get(d.slug) ?? new Set()).add(d.key));
  const needsHash = (d: Draft) => d.directory !== null || (setsPerSlug.get(d.slug)?.size ?? 0) > 1;
  const digests = drafts.map((d) => createHash('sha256').update(d.hashInput).digest('hex'));
  for (const length of HASH_LENGTHS) {
    const names = drafts.map((d, i) => (needsHash(d) ? `${d.slug}-${(digests[i] as string).slice(0, length)}` : d.slug));
    if (new Set(names).size === names.length || length === HASH_LENGTHS[HASH_LENGTHS.length - 1]) {
      return drafts.map((d, i) => ({
        name: names[i] as string,
        owners: d.owners,
        files: d.files,
        directory: d.directory,
      }));
    }
  }
  // Cannot happen: the loop returns at the last hash length whether or not the names are unique there.
  throw new Error('unreachable: the last hash length always names the pieces');
}

/**
 * The owners as a branch-name part: each owner's name (a team's last segment, an e-mail's local part, a
 * role without `@@`), lower-cased, other characters as `-`, sorted and joined with `+`, cut to 40.
 */
export function slugOf(owners: readonly string[]): string {
  if (owners.length === 0) return 'unowned';
  const parts = owners.map((o) => {
    let name = o.replace(/^@+/, '');
    if (!o.startsWith('@') && name.includes('@')) name = name.slice(0, name.indexOf('@'));
    name = name.slice(name.lastIndexOf('/') + 1);
    const clean = name
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '');
    return clean === '' ? 'owner' : clean;
  });
  const joined = [...new Set(parts)].sort(compareCodeUnits).join('+');
  return joined.slice(0, SLUG_MAX).replace(/[-+]+$/, '');
}

/**
 * Files (sorted, sharing their first `depth` folders) cut into runs of at most `max`, folder by folder:
 * a folder that fits stays whole, one that does not is cut the same way one level down, files directly in
 * a folder that do not fit are cut in path order; then neighbouring runs are packed together while they fit.
 */
function cutByDirectory(files: readonly string[], depth: number, max: number): string[][] {
  if (files.length <= max) return [[...files]];
  const direct: string[] = [];
  const folders = new Map<string, string[]>();
  for (const f of files) {
    const segs = f.split('/');
    if (segs.length <= depth + 1) {
      direct.push(f);
      continue;
    }
    const name = segs[depth] as string;
    const list = folders.get(name);
    if (list === undefined) folders.set(name, [f]);
    else list.push(f);
  }
  const units: string[][] = [];
  for (let i = 0; i < direct.length; i += max) units.push(direct.slice(i, i + max));
  for (const group of folders.values()) units.push(...cutByDirectory(group, depth + 1, max));
  units.sort((a, b) => compareCodeUnits(a[0] as string, b[0] as string));

  const packed: string[][] = [];
  for (const unit of units) {
    const last = packed[packed.length - 1];
    if (last !== undefined && last.length + unit.length <= max) last.push(...unit);
    else packed.push([...unit]);
  }
  for (const run of packed) run.sort(compareCodeUnits);
  return packed;
}

/** The deepest folder holding every one of these files ('' for the root). */
function commonDirectory(files: readonly string[]): string {
  const dirs = files.map((f) => f.split('/').slice(0, -1));
  const first = dirs[0] ?? [];
  let n = first.length;
  for (const d of dirs) {
    let i = 0;
    while (i < n && d[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n).join('/');
}
