// No path git would refuse, judged by native git: whatever the one path validator
// (core/check-path) accepts, scion's own tree writer commits and `git fsck --strict` passes, and
// `git update-index` (git's verify_path) accepts it too. What it refuses from the known-bad lists,
// native git refuses as well, so the lists are git's and not ours.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPath } from '../../src/core/index.js';
import { closeRepo, commitBytes, EMPTY_TREE, openRepo, writeTreeWith, type DryRunObjects, type TreeChange } from '../../src/git/index.js';
import { gitEnv } from '../support/git-repo.js';
import { KNOWN_BAD, KNOWN_BAD_SYMLINKS, KNOWN_GOOD } from './paths.js';

const IGNORABLE = [
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u206a',
  '\u206b',
  '\u206c',
  '\u206d',
  '\u206e',
  '\u206f',
  '\ufeff',
];
/** Pieces that string together into .git look-alikes, and every byte class git treats specially. */
const LOOKALIKE = [
  '.',
  '.',
  'git',
  'GIT',
  'Git',
  'gIT',
  'g',
  'i',
  't',
  'G',
  'I',
  'T',
  '~',
  '~1',
  '~4',
  '1',
  '9',
  ' ',
  ':',
  '::$INDEX_ALLOCATION',
  ':$DATA',
  '\\',
  'modules',
  'MODULES',
  'gitmod',
  'gi7eba',
  'gi7d29',
  'attributes',
  'mailmap',
  ...IGNORABLE,
];
const ORDINARY = ['a', 'x', 'src', '.ts', '-', '_', ' ', '\n', '\t', '\r', '\u00e9', '\u0131', '\u212a', '\u2060', '\u200b', '\ud83d\ude00', '*', '?', '#'];
/** Refused wherever they appear: a NUL, lone surrogates, a separator making empty or dot components. */
const RARE = ['\0', '\ud800', '\udc00', '/'];
const piece = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...LOOKALIKE) },
  { weight: 10, arbitrary: fc.constantFrom(...ORDINARY) },
  { weight: 1, arbitrary: fc.constantFrom(...RARE) },
);

/** A name git guards (.git, .gitmodules, …), case-flipped, with ignorable code points slipped in and an NTFS tail. */
const disguised = fc
  .tuple(
    fc.constantFrom('.git', '.git', 'git~1', '.gitmodules', 'gitmod~1', 'gi7eba~2', '.gitattributes', '.gitignore', '.mailmap', '.gi', 'git'),
    fc.array(fc.tuple(fc.nat(14), fc.constantFrom(...IGNORABLE, '\u200b', '\u00ad')), { maxLength: 2 }),
    fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
    fc.constantFrom('', '', '.', ' ', '. .', ':', ':x', '::$INDEX_ALLOCATION', '~1', 'x', '\\x', '\n'),
  )
  .map(([name, inserts, upper, tail]) => {
    let out = [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
    for (const [at, c] of inserts) out = out.slice(0, at % (out.length + 1)) + c + out.slice(at % (out.length + 1));
    return out + tail;
  });

const component = fc.oneof(
  { weight: 6, arbitrary: disguised },
  { weight: 8, arbitrary: fc.array(piece, { minLength: 1, maxLength: 7 }).map((a) => a.join('')) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '.git',
      '.git.',
      '.git ',
      'git~1',
      'GIT~1',
      '.gitmodules',
      'gitmod~1',
      'gi7eba~1',
      '.gitattributes',
      'gi7d29~1',
      '.mailmap',
      '.gitignore',
      '.',
      '..',
      '',
      'src',
      'a b',
      'x\ny',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }) },
);
const entry = fc.record({
  path: fc.array(component, { minLength: 1, maxLength: 4 }).map((cs) => cs.join('/')),
  mode: fc.constantFrom('100644', '100644', '100755', '120000'),
});

interface Accepted {
  readonly path: string;
  readonly mode: string;
}

/** The validator's choice, minus duplicates and file/folder clashes (a tree cannot hold `a` and `a/b`). */
function accept(entries: readonly Accepted[]): Accepted[] {
  const files = new Set<string>();
  const dirs = new Set<string>();
  const out: Accepted[] = [];
  for (const e of entries) {
    if (!checkPath(e.path, { mode: e.mode }).ok) continue;
    const parts = e.path.split('/');
    const prefixes = parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
    if (files.has(e.path) || dirs.has(e.path) || prefixes.some((p) => files.has(p))) continue;
    files.add(e.path);
    for (const p of prefixes) dirs.add(p);
    out.push(e);
  }
  return out;
}

function git(cwd: string, args: string[], input?: Buffer, env: NodeJS.ProcessEnv = {}): { status: number; out: string } {
  const r = spawnSync('git', args, { cwd, env: { ...gitEnv(), ...env }, input, maxBuffer: 1 << 26 });
  return { status: r.status ?? -1, out: `${r.stdout?.toString('utf8') ?? ''}${r.stderr?.toString('utf8') ?? ''}` };
}

/** An empty repository, laid out as `git init` does (written here: thirty of them cost nothing). */
function freshRepo(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'scion-paths-')));
  for (const d of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags']) mkdirSync(join(dir, '.git', d), { recursive: true });
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n');
  return dir;
}

/**
 * Commits `entries` with scion's tree writer; returns the commit. The writer runs in its dry-run
 * mode (objects kept in memory, byte-identical to what it writes) and the objects reach the
 * repository as one pack through native `git index-pack`: one file instead of hundreds keeps
 * thousands of fuzzed paths fast on a slow disk.
 */
async function commitWithScion(dir: string, entries: readonly Accepted[]): Promise<string> {
  const repo = await openRepo(dir);
  try {
    const objects = new Map<string, { type: string; data: Buffer }>();
    const put = (type: string, data: Buffer): string => {
      const oid = createHash('sha1').update(`${type} ${data.length}\0`).update(data).digest('hex');
      objects.set(oid, { type, data });
      return oid;
    };
    // Names are under test, not contents: two blobs serve every entry (a file's and a link's target).
    const file = put('blob', Buffer.from('x\n'));
    const link = put('blob', Buffer.from('target'));
    const changes = new Map<string, TreeChange>();
    for (const e of entries) changes.set(e.path, { oid: e.mode === '120000' ? link : file, mode: e.mode });
    const made: DryRunObjects = new Map();
    const tree = await writeTreeWith(repo, EMPTY_TREE, changes, { dryRun: made });
    for (const [oid, obj] of made) expect(put(obj.type, Buffer.from(obj.data))).toBe(oid);
    const who = { name: 'Fuzz', email: 'fuzz@example.com' };
    const commit = put('commit', commitBytes({ tree, parents: [], message: 'fuzzed paths\n', author: who, committer: who }));
    const indexed = git(dir, ['index-pack', '--stdin'], packOf([...objects.values()]));
    expect(indexed, 'git index-pack').toMatchObject({ status: 0 });
    return commit;
  } finally {
    closeRepo(repo);
  }
}

const PACK_TYPES: Record<string, number> = { commit: 1, tree: 2, blob: 3 };

/** A version 2 pack of whole (undeltified) objects, as git's pack-format.txt describes it. */
function packOf(objects: readonly { type: string; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(objects.length, 8);
  const parts = [header];
  for (const o of objects) {
    const bytes: number[] = [];
    let size = o.data.length;
    let byte = (PACK_TYPES[o.type]! << 4) | (size & 0x0f);
    size >>= 4;
    while (size > 0) {
      bytes.push(byte | 0x80);
      byte = size & 0x7f;
      size >>= 7;
    }
    bytes.push(byte);
    parts.push(Buffer.from(bytes), deflateSync(o.data));
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha1').update(body).digest()]);
}

describe('the path validator against native git', () => {
  it('whatever it accepts, scion commits and git fsck --strict and git update-index accept', async () => {
    let committed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 200, size: 'max' }), async (entries) => {
        const accepted = accept(entries);
        if (accepted.length === 0) return;
        const dir = freshRepo();
        try {
          const commit = await commitWithScion(dir, accepted);
          // fsck checks every object in the repository; the commit named makes the tree reachable.
          const fsck = git(dir, ['fsck', '--strict', '--no-progress', '--no-dangling', commit]);
          expect(fsck, `fsck --strict of ${JSON.stringify(accepted)}`).toMatchObject({ status: 0 });
          // The tree holds exactly the accepted paths, byte for byte.
          const ls = execFileSync('git', ['ls-tree', '-r', '-z', '--full-tree', commit], { cwd: dir, env: gitEnv(), maxBuffer: 1 << 26 });
          const listed = ls
            .toString('utf8')
            .split('\0')
            .filter((l) => l !== '')
            .map((l) => l.slice(l.indexOf('\t') + 1));
          expect(listed.sort()).toEqual(accepted.map((e) => e.path).sort());
          // git's verify_path (what `git add` and a checkout accept) agrees.
          const idx = git(dir, ['update-index', '-z', '--index-info'], rebuildInfo(ls), { GIT_INDEX_FILE: join(dir, 'fuzz-index') });
          expect(idx, `update-index of ${JSON.stringify(accepted)}`).toMatchObject({ status: 0 });
          committed += accepted.length;
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 20 },
    );
    // The generator must reach the writer, not only the refusals.
    expect(committed).toBeGreaterThan(500);
  });

  it('commits the known-good paths (newlines, tabs, backslashes, colons, near-misses of .git) and fsck passes', async () => {
    const dir = freshRepo();
    try {
      const entries = accept(KNOWN_GOOD.map((p) => ({ path: p, mode: p === 'gitmod~1' ? '100644' : '100755' })));
      // '.. ' (a file) and '.. /x' (under a folder of that name) cannot share a tree; 'a:b' is
      // refused by checkPath as a Windows drive prefix, although git on POSIX would store it.
      expect(entries.length).toBe(KNOWN_GOOD.length - 2);
      const commit = await commitWithScion(dir, entries);
      git(dir, ['update-ref', 'refs/heads/main', commit]);
      expect(git(dir, ['fsck', '--strict', '--no-progress', '--no-dangling'])).toMatchObject({ status: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses the known-bad paths, and native git fsck --strict refuses each of them too', () => {
    const dir = freshRepo();
    try {
      const blob = looseObject(dir, 'blob', Buffer.from('x\n'));
      const cases = [...KNOWN_BAD.map((p) => ({ path: p, mode: '100644' })), ...KNOWN_BAD_SYMLINKS.map((p) => ({ path: p, mode: '120000' }))];
      const chains: { path: string; mode: string; trees: string[] }[] = [];
      for (const c of cases) {
        expect(checkPath(c.path, { mode: c.mode }).ok, JSON.stringify(c)).toBe(false);
        // Native git's judgement, where a tree can hold the name at all (no NUL, valid UTF-8, no
        // empty or over-long component: git 2.39 has no largePathname check).
        const parts = c.path.split('/');
        if (c.path.includes('\0') || /[\ud800-\udfff]/u.test(c.path) || parts.some((p) => p === '' || p.length > 4096)) continue;
        chains.push({ ...c, trees: nestedTrees(dir, parts, blob, c.mode) });
      }
      expect(chains.length).toBeGreaterThan(50);
      // One fsck over all of them; each case must have one of its own trees named in an error.
      const fsck = git(dir, ['fsck', '--strict', '--no-progress', '--no-dangling', '--unreachable']);
      expect(fsck.status).not.toBe(0);
      const blamed = new Set([...fsck.out.matchAll(/error in (?:tree|blob) ([0-9a-f]{40})/g)].map((m) => m[1]));
      for (const c of chains)
        expect(
          c.trees.some((t) => blamed.has(t)),
          `${JSON.stringify(c.path)} (${c.mode})\n${fsck.out}`,
        ).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Writes a loose object the way git does (zlib of "<type> <size>\0<body>"), judging nothing. */
function looseObject(dir: string, type: string, body: Buffer): string {
  const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const oid = createHash('sha1').update(raw).digest('hex');
  const file = join(dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, deflateSync(raw));
  return oid;
}

/** Trees holding `parts` (one name per level), innermost first, written without any name check. */
function nestedTrees(dir: string, parts: readonly string[], blob: string, mode: string): string[] {
  const out: string[] = [];
  let oid = blob;
  let m = mode;
  for (let i = parts.length - 1; i >= 0; i--) {
    oid = looseObject(dir, 'tree', Buffer.concat([Buffer.from(`${m} ${parts[i]}\0`, 'utf8'), Buffer.from(oid, 'hex')]));
    out.push(oid);
    m = '40000';
  }
  return out;
}

/** `git ls-tree -r -z` lines turned into `update-index -z --index-info` input. */
function rebuildInfo(ls: Buffer): Buffer {
  const lines = ls
    .toString('utf8')
    .split('\0')
    .filter((l) => l !== '');
  return Buffer.concat(
    lines.map((l) => {
      const [meta, path] = [l.slice(0, l.indexOf('\t')), l.slice(l.indexOf('\t') + 1)];
      const [mode, , oid] = meta.split(' ');
      return Buffer.from(`${mode} ${oid}\t${path}\0`, 'utf8');
    }),
  );
}
