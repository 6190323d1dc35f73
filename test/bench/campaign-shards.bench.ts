// A dry-run campaign over N small repositories (SCION_BENCH_SHARD_REPOS, default 2,000) served by
// native `git http-backend` on loopback, run as 4 shards one after another (what 4 CI machines or pods
// would run at once) through the real CLI, then `merge-reports` of the 4 reports. Reported: time per
// repository, peak RSS of each shard against a shard of a list a quarter as long (flat in the number of
// repositories), the merge, and the arithmetic for 50,000 repositories on 256 shards. Needs `npm run build`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGitServer, type GitServer } from '../support/git-http-server.js';
import { cleanEnv, HAS_TIME, mb, table } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const N = Number(process.env.SCION_BENCH_SHARD_REPOS ?? 2000);
const SHARDS = 4;
const CONCURRENCY = 4;

/** A child process timed with its peak RSS (GNU time), without blocking this process's git server. */
function timedAsync(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ seconds: number; rssKB: number; code: number | null; stderr: string }> {
  const t0 = performance.now();
  const [cmd, rest] = HAS_TIME ? ['/usr/bin/time', ['-f', '@@rss %M', process.execPath, ...args]] : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, rest, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /@@rss (\d+)/.exec(stderr);
      resolve({ seconds: (performance.now() - t0) / 1000, rssKB: m ? Number(m[1]) : 0, code, stderr });
    });
  });
}

/** N repositories of 12 small files, one of which holds the call the recipe replaces. */
function makeRepos(server: GitServer, n: number): string[] {
  const urls: string[] = [];
  for (let r = 0; r < n; r++) {
    const { dir, url } = server.bare(`acme/s${r}.git`);
    const chunks: string[] = [`commit refs/heads/main\ncommitter B <b@b> 1700000000 +0000\ndata 4\ninit\n`];
    for (let k = 0; k < 12; k++) {
      const text = `export const v${k} = ${k === 3 ? `legacyApi(${r})` : r * k};\n// repository ${r}, file ${k}\n`;
      chunks.push(`M 100644 inline src/f${k}.ts\ndata ${Buffer.byteLength(text)}\n${text}\n`);
    }
    // Synchronous is fine here: the server has not been asked for anything yet.
    const res = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, env: cleanEnv(), input: chunks.join('') });
    if (res.status !== 0) throw new Error(`fast-import: ${res.stderr.toString()}`);
    urls.push(url);
  }
  return urls;
}

export default async function bench(): Promise<void> {
  const server = await startGitServer();
  const work = mkdtempSync(join(tmpdir(), 'scion-shards-bench-'));
  try {
    const t0 = performance.now();
    const urls = makeRepos(server, N);
    console.log(`${N} repositories of 12 files, served at ${server.url} (${((performance.now() - t0) / 1000).toFixed(1)} s to make)`);
    const recipe = join(work, 'new-api.yaml');
    writeFileSync(recipe, 'name: new-api\nsteps:\n  - replace: { old_string: "legacyApi(", new_string: "modernApi(", replace_all: true }\n');
    const list = (n: number) => {
      const f = join(work, `repos-${n}.txt`);
      writeFileSync(f, urls.slice(0, n).join('\n') + '\n');
      return f;
    };
    const env = cleanEnv({ ...server.githubEnv(), HOME: '/nonexistent' });
    const bin = join(ROOT, 'bin/scion.js');
    const shard = (listFile: string, i: number, of: number, cache: string, report: string) =>
      timedAsync(
        [
          bin,
          'run',
          recipe,
          '--repos',
          listFile,
          '--cache-dir',
          cache,
          '--dry-run',
          '--concurrency',
          String(CONCURRENCY),
          '--shard',
          `${i}/${of}`,
          '--report',
          report,
        ],
        work,
        env,
      );
    const rows: string[][] = [];
    // A shard of a list a quarter as long: its peak RSS is the one to compare with.
    const quarter = Math.max(SHARDS, Math.round(N / 4));
    const small = await shard(list(quarter), 1, SHARDS, join(work, 'cache-small'), join(work, 'small.json'));
    if (small.code !== 0) throw new Error(`the small shard exited ${small.code}: ${small.stderr.slice(-1500)}`);
    rows.push([
      `shard 1/${SHARDS} of ${quarter} repositories`,
      `${small.seconds.toFixed(1)} s`,
      `${((small.seconds / (quarter / SHARDS)) * 1000).toFixed(0)} ms`,
      mb(small.rssKB),
    ]);
    const reports: string[] = [];
    let total = 0;
    for (let i = 1; i <= SHARDS; i++) {
      const report = join(work, `shard-${i}.json`);
      const r = await shard(list(N), i, SHARDS, join(work, `cache-${i}`), report);
      if (r.code !== 0) throw new Error(`shard ${i} exited ${r.code}: ${r.stderr.slice(-1500)}`);
      total += r.seconds;
      reports.push(report);
      rows.push([
        `shard ${i}/${SHARDS} of ${N} repositories`,
        `${r.seconds.toFixed(1)} s`,
        `${((r.seconds / (N / SHARDS)) * 1000).toFixed(0)} ms`,
        mb(r.rssKB),
      ]);
    }
    const merged = await timedAsync([bin, 'merge-reports', ...reports, '--report', join(work, 'merged.json')], work, env);
    const jobs = (JSON.parse(readFileSync(join(work, 'merged.json'), 'utf8')) as { jobs: { status: string }[] }).jobs;
    if (jobs.length !== N || jobs.some((j) => j.status !== 'changed')) throw new Error(`merged report: ${jobs.length} jobs, expected ${N} changed`);
    rows.push([`merge-reports of ${SHARDS} reports (${N} jobs)`, `${merged.seconds.toFixed(1)} s`, '', mb(merged.rssKB)]);
    console.log(table(['what', 'time', 'per repository', 'peak RSS'], rows));
    const perRepo = total / N;
    const at = (repos: number, shards: number) => (repos / shards) * perRepo;
    console.log(
      `\nPer repository, one shard at --concurrency ${CONCURRENCY}: ${(perRepo * 1000).toFixed(0)} ms (clone, edit, dry run; loopback).` +
        `\n50,000 repositories on 256 shards: ${Math.ceil(50_000 / 256)} each, about ${(at(50_000, 256) / 60).toFixed(1)} min per shard at this rate;` +
        ` 5,000 on 16 shards: ${(at(5_000, 16) / 60).toFixed(1)} min.`,
    );
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
