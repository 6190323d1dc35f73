// `scion pr --report FILE`: flags → the API's pull-request options, one line per pull request, exit 0/1.
// The pull requests' life (create, update, close, declined, auto-merge) is the one publishing path's.
// The flags were checked by yargs (flags/rules.ts: checkPrFlags) before this module was loaded.
import { pullRequests } from '../../api/publish.js';
import { readReport } from '../../api/reports.js';
import { hostOptionsFor } from '../../api/track.js';
import type { Args } from '../args.js';
import { EXIT_INTERRUPTED } from '../exit.js';
import { labelsOf } from '../flags/rules.js';
import type { CliIo } from '../io.js';

export async function run(io: CliIo, a: Args): Promise<number> {
  const report = String(a['report']);
  // --comment, --close, --ready or --merge: one operation over the report's live pull requests.
  const bulk = await import('./pr-bulk.js');
  const flags = a as unknown as import('./pr-bulk.js').BulkFlags;
  const action = bulk.bulkActionOf(flags);
  if (action !== null) return bulk.bulkPrCmd(io, await readReport(report, io.cwd), report, action, flags);
  const recipes = a['recipe'] === undefined ? undefined : Array.isArray(a['recipe']) ? a['recipe'].map(String) : [String(a['recipe'])];
  const done = await pullRequests({
    report,
    repo: a['repo'] === undefined ? '.' : String(a['repo']),
    ...(recipes !== undefined ? { recipes } : {}),
    ...(a['remote'] !== undefined ? { remote: String(a['remote']) } : {}),
    ...(a['base'] !== undefined ? { base: String(a['base']) } : {}),
    draft: a['draft'] === true,
    labels: labelsOf(a['label'] as string | string[] | undefined),
    reopen: a['reopen'] === true,
    intervalMs: a['prInterval'] as number,
    hostOptions: hostOptionsFor(io, { ...(a['writeBudget'] !== undefined ? { writeBudget: String(a['writeBudget']) } : {}) }),
    ...(a['cacheDir'] !== undefined ? { cacheDir: String(a['cacheDir']) } : {}),
    cwd: io.cwd,
    env: io.env,
    ...(io.signal ? { signal: io.signal } : {}),
    say: (l) => io.stdout.write(`${l}\n`),
    note: (n) => io.stderr.write(`scion: ${n}\n`),
  });
  for (const p of done.problems) io.stderr.write(`scion: ${p}\n`);
  if (io.signal?.aborted) return EXIT_INTERRUPTED;
  if (done.nothingToPublish) io.stdout.write(`${report} lists no pushed branch: no pull request to open.\n`);
  if (done.error !== null) {
    for (const line of done.error.split('\n')) io.stderr.write(`scion: ${line}\n`);
    return 1;
  }
  return done.problems.length > 0 ? 1 : 0;
}
