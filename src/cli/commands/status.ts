// `scion status --report FILE` / `scion status <recipe..> --repo DIR`: flags → the API's status
// options, rows → a table or JSON, exit 0 (an error that stops it exits as any other: 1, or 2 for usage).
import { renderStatusTable } from '../../api/output.js';
import { status } from '../../api/status.js';
import type { Args } from '../args.js';
import type { CliIo } from '../io.js';

export async function run(io: CliIo, a: Args): Promise<number> {
  const recipes = a['recipe'] === undefined ? [] : Array.isArray(a['recipe']) ? a['recipe'].map(String) : [String(a['recipe'])];
  const r = await status({
    ...(a['report'] !== undefined ? { report: String(a['report']) } : {}),
    recipes,
    repo: String(a['repo']),
    ...(a['remote'] !== undefined ? { remote: String(a['remote']) } : {}),
    ...(a['cacheDir'] !== undefined ? { cacheDir: String(a['cacheDir']) } : {}),
    cwd: io.cwd,
    env: io.env,
  });
  io.stdout.write(a['json'] === true ? `${JSON.stringify(r.rows, null, 2)}\n` : renderStatusTable(r.rows, r.campaign ? { repos: true } : {}));
  // Status is read, not run: it exits 0 once it could be read. A campaign repository it could not
  // read is named on stderr (its jobs have no row); only failing to read any status is an error.
  if (r.problems.length > 0) {
    const n = r.problems.length;
    io.stderr.write(`scion: ${n === 1 ? 'one repository' : `${n} repositories`} could not be read; ${n === 1 ? 'its' : 'their'} jobs are not listed:\n`);
    for (const p of r.problems) io.stderr.write(`  ${p}\n`);
  }
  return 0;
}
