// A campaign (issue H) over N small repositories served by native `git http-backend` on loopback
// (test/support/git-http-server.ts), each a few hundred real files from this project's node_modules,
// three of which hold `legacyApi(`; the recipe replaces it with `modernApi(`.
//  (a) cold campaign (empty cache) at --concurrency 1 and 4, against native git repository by
//      repository: `git clone --depth 1 --bare` + the same edit with plumbing (grep, cat-file,
//      hash-object, read-tree/update-index on a temporary index, write-tree, commit-tree, update-ref);
//  (b) the warm rerun (nothing changed upstream): every job `unchanged`, and no object downloaded
//      again (pack files and objects in the cache counted before and after, no upload-pack POST);
//  (c) peak RSS of the campaign process at concurrency 4 for 50 and for N repositories.
// scion runs through the library (runCampaign from dist/index.js, as `scion run --repos` will), in a child
// process so its timing includes start-up and its peak RSS is its own. N: SCION_BENCH_CAMPAIGN_REPOS
// (default 200). Needs `npm run build`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startGitServer, type GitServer } from '../support/git-http-server.js';
import { textFiles } from './corpus.js';
import { cleanEnv, mb, parseBatch, table } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const N = Number(process.env.SCION_BENCH_CAMPAIGN_REPOS ?? 200);
const SMALL = Math.min(50, N);
const FILES_PER_REPO = 300;
const EDITED_PER_REPO = 3;
const OLD = 'legacyApi(';
const NEW = 'modernApi(';

interface Run {
  readonly seconds: number;
  readonly rssKB: number;
}

/** Runs a command without blocking the event loop (the http server lives in this process). */
function run(cmd: string, args: readonly string[], o: { cwd: string; env?: NodeJS.ProcessEnv; input?: Buffer | string }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env ?? cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    // A command that reads no input may exit before its stdin is closed.
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`))));
    child.stdin.end(o.input ?? '');
  });
}

// ---- the repositories ---------------------------------------------------------------------------

function makeRepos(server: GitServer, n: number): string[] {
  const files = textFiles(join(ROOT, 'node_modules')).filter((f) => f.size < 64 * 1024);
  const urls: string[] = [];
  for (let r = 0; r < n; r++) {
    const { dir, url } = server.bare(`acme/r${r}.git`);
    const start = (r * 997) % files.length;
    const mine = Array.from({ length: FILES_PER_REPO }, (_, k) => files[(start + k) % files.length]!);
    const chunks: Buffer[] = [];
    const msg = `repository ${r}`;
    chunks.push(Buffer.from(`commit refs/heads/main\nauthor B <b@b> 1700000000 +0000\ncommitter B <b@b> 1700000000 +0000\ndata ${msg.length}\n${msg}\n`));
    mine.forEach((f, k) => {
      let data = readFileSync(join(ROOT, 'node_modules', f.path));
      // A few files per repository carry the call the recipe replaces.
      if (k % Math.floor(FILES_PER_REPO / EDITED_PER_REPO) === 7) data = Buffer.concat([data, Buffer.from(`\n${OLD}${r}, ${k});\n`)]);
      chunks.push(Buffer.from(`M 100644 inline ${f.path}\ndata ${data.length}\n`), data, Buffer.from('\n'));
    });
    const res = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, env: cleanEnv(), input: Buffer.concat(chunks) });
    if (res.status !== 0) throw new Error(`fast-import: ${res.stderr.toString()}`);
    urls.push(url);
  }
  return urls;
}

// ---- native -------------------------------------------------------------------------------------

async function nativeOne(server: GitServer, url: string, dest: string, k: number): Promise<void> {
  await run('git', [...server.authArgs(), 'clone', '-q', '--depth', '1', '--bare', url, dest], { cwd: tmpdir() });
  const g = async (args: string[], extra: NodeJS.ProcessEnv = {}, input?: string): Promise<string> =>
    (await run('git', args, { cwd: dest, env: cleanEnv(extra), ...(input !== undefined ? { input } : {}) })).toString('utf8').trimEnd();
  const paths = (await g(['grep', '-l', '-z', '-F', '-e', OLD, 'HEAD']))
    .split('\0')
    .filter(Boolean)
    .map((p) => p.replace(/^HEAD:/, ''));
  const contents = parseBatch(
    await run('git', ['cat-file', '--batch'], { cwd: dest, env: cleanEnv(), input: paths.map((p) => `HEAD:${p}`).join('\n') + '\n' }),
  );
  const scratch = join(dest, 'bench-tmp');
  mkdirSync(scratch);
  const temp = contents.map((data, i) => {
    const f = join(scratch, String(i));
    writeFileSync(f, data.toString('utf8').split(OLD).join(NEW));
    return f;
  });
  const oids = (await g(['hash-object', '-w', '--stdin-paths'], {}, temp.join('\n') + '\n')).split('\n');
  const idx = { GIT_INDEX_FILE: join(scratch, 'index') };
  await g(['read-tree', 'HEAD'], idx);
  await g(['update-index', '--index-info'], idx, paths.map((p, i) => `100644 ${oids[i]}\t${p}`).join('\n') + '\n');
  const tree = await g(['write-tree'], idx);
  const commit = await g(['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit-tree', tree, '-p', 'HEAD', '-m', `native ${k}`]);
  await g(['update-ref', 'refs/heads/native/new-api', commit, '']);
  rmSync(scratch, { recursive: true, force: true });
}

async function nativeAll(server: GitServer, urls: readonly string[], into: string): Promise<Run> {
  const t0 = performance.now();
  for (let k = 0; k < urls.length; k++) await nativeOne(server, urls[k]!, join(into, `r${k}.git`), k);
  return { seconds: (performance.now() - t0) / 1000, rssKB: 0 };
}

// ---- scion (child process) ----------------------------------------------------------------------

const CHILD =
  `
const [dist, list, cache, concurrency, recipeFile] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const { runCampaign, parseRepoList, loadRecipe } = await import(dist + '/index.js');
const { targets, problems } = parseRepoList(readFileSync(list, 'utf8'), { cwd: process.cwd() });
if (problems.length) throw new Error(problems.join('; '));
const loaded = await loadRecipe(recipeFile);
if (!loaded.ok) throw new Error('recipe');
const { report } = await runCampaign([{ file: recipeFile, recipe: loaded.recipe }], { targets, cacheDir: cache, concurrency: Number(concurrency) }, ` +
  `{ env: process.env });
const statuses = {};
for (const j of report.jobs) statuses[j.status] = (statuses[j.status] ?? 0) + 1;
const failed = report.jobs.find((j) => j.status === 'failed');
console.log(JSON.stringify({ statuses, rssKB: process.resourceUsage().maxRSS, failed: failed ? failed.errors : null }));
`;

async function scion(server: GitServer, list: string, cache: string, concurrency: number, recipe: string): Promise<Run & { statuses: Record<string, number> }> {
  const t0 = performance.now();
  // SCION_BENCH_PROFILE=DIR: a CPU profile of each campaign process lands in DIR.
  const prof = process.env.SCION_BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.SCION_BENCH_PROFILE] : [];
  const out = await run(
    process.execPath,
    [...prof, '--input-type=module', '-e', CHILD, pathToFileURL(join(ROOT, 'dist')).href, list, cache, String(concurrency), recipe],
    {
      cwd: tmpdir(),
      env: cleanEnv({ ...server.githubEnv(), HOME: '/nonexistent' }),
    },
  );
  const seconds = (performance.now() - t0) / 1000;
  const r = JSON.parse(out.toString('utf8').trim().split('\n').pop()!) as { statuses: Record<string, number>; rssKB: number; failed: unknown };
  if (r.failed) throw new Error(`a campaign job failed: ${JSON.stringify(r.failed)}`);
  return { seconds, rssKB: r.rssKB, statuses: r.statuses };
}

/** Pack files, objects in packs and loose objects over every clone of a cache. */
function cacheObjects(cache: string): { packs: number; packed: number; loose: number } {
  const tally = { packs: 0, packed: 0, loose: 0 };
  const visit = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (!e.isDirectory()) continue;
      if (e.name.endsWith('.git') && statSync(join(p, 'objects'), { throwIfNoEntry: false })) {
        const packDir = join(p, 'objects', 'pack');
        for (const f of readdirSync(packDir)) {
          if (!f.endsWith('.idx')) continue;
          tally.packs++;
          tally.packed += readFileSync(join(packDir, f)).readUInt32BE(8 + 255 * 4);
        }
        for (const d of readdirSync(join(p, 'objects'))) if (/^[0-9a-f]{2}$/.test(d)) tally.loose += readdirSync(join(p, 'objects', d)).length;
      } else visit(p);
    }
  };
  visit(cache);
  return tally;
}

export default async function bench(): Promise<void> {
  const server = await startGitServer();
  const work = mkdtempSync(join(tmpdir(), 'scion-campaign-bench-'));
  try {
    const t0 = performance.now();
    const urls = makeRepos(server, N);
    console.log(
      `${N} repositories of ${FILES_PER_REPO} files from node_modules ` +
        `(${EDITED_PER_REPO} edited each), served at ${server.url} (${((performance.now() - t0) / 1000).toFixed(1)} s to make)`,
    );
    const recipe = join(work, 'new-api.yaml');
    writeFileSync(recipe, `name: new-api\nsteps:\n  - replace: { old_string: "${OLD}", new_string: "${NEW}", replace_all: true }\n`);
    const list = (n: number): string => {
      const f = join(work, `repos-${n}.txt`);
      writeFileSync(f, urls.slice(0, n).join('\n') + '\n');
      return f;
    };
    const rows: string[][] = [];
    const cache = (name: string): string => join(work, `cache-${name}`);
    const expectAll = (what: string, statuses: Record<string, number>, status: string, n: number): void => {
      if (statuses[status] !== n) throw new Error(`${what}: expected ${n} ${status}, got ${JSON.stringify(statuses)}`);
    };

    const native = await nativeAll(server, urls, join(work, 'native'));
    rows.push([`native: clone --depth 1 --bare + plumbing edit, one by one (${N})`, `${native.seconds.toFixed(1)} s`, '1.00×', '–', '']);

    const c1 = await scion(server, list(N), cache('c1'), 1, recipe);
    expectAll('cold c=1', c1.statuses, 'changed', N);
    rows.push([
      `scion cold, --concurrency 1 (${N})`,
      `${c1.seconds.toFixed(1)} s`,
      `${(c1.seconds / native.seconds).toFixed(2)}×`,
      mb(c1.rssKB),
      '≤ 1× native',
    ]);

    const c4 = await scion(server, list(N), cache('c4'), 4, recipe);
    expectAll('cold c=4', c4.statuses, 'changed', N);
    rows.push([
      `scion cold, --concurrency 4 (${N})`,
      `${c4.seconds.toFixed(1)} s`,
      `${(c4.seconds / native.seconds).toFixed(2)}×`,
      mb(c4.rssKB),
      '≤ 0.5× native, < 400 MB',
    ]);

    const before = cacheObjects(cache('c4'));
    const requests = server.requests.length;
    const warm = await scion(server, list(N), cache('c4'), 4, recipe);
    expectAll('warm', warm.statuses, 'unchanged', N);
    const after = cacheObjects(cache('c4'));
    const posts = server.requests.slice(requests).filter((r) => r.method === 'POST').length;
    // The jobs' branches already point at their commits, so the cache must hold exactly what it held.
    const same = before.packs === after.packs && before.packed === after.packed && before.loose === after.loose;
    rows.push([
      `scion warm rerun, --concurrency 4 (${N}): all unchanged`,
      `${warm.seconds.toFixed(1)} s`,
      `${(warm.seconds / native.seconds).toFixed(2)}×`,
      mb(warm.rssKB),
      '< 15 s',
    ]);
    console.log(
      `warm rerun: cache before ${JSON.stringify(before)}, after ${JSON.stringify(after)}; upload-pack POSTs (fetches) ` +
        `${posts}; ${same && posts === 0 ? 'no object downloaded again' : 'OBJECTS WERE DOWNLOADED AGAIN'}`,
    );

    if (SMALL < N) {
      const small = await scion(server, list(SMALL), cache('small'), 4, recipe);
      expectAll('cold small', small.statuses, 'changed', SMALL);
      rows.push([`scion cold, --concurrency 4 (${SMALL})`, `${small.seconds.toFixed(1)} s`, '', mb(small.rssKB), `RSS not above the ${N}-repository run's`]);
    }
    console.log(table(['campaign', 'time', 'vs native', 'peak RSS', 'target'], rows));
    console.log('scion: one child process running runCampaign (start-up included), peak RSS from its resourceUsage; native: git processes one after another');
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
