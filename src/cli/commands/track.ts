// `scion track --report FILE`: flags → trackReport (src/track/track-report.ts), its result → a summary line.
// The flags were checked by yargs (flags/rules.ts: checkTrackFlags) before this module was loaded.
import { isScionError } from '../../api/errors.js';
import { readReport } from '../../api/reports.js';
import { hostOptionsFor, trackReport, TRACK_STATES, type BudgetFlags } from '../../api/track.js';
import type { Args } from '../args.js';
import type { CliIo } from '../io.js';

export interface TrackFlags extends BudgetFlags {
  report: string;
  history?: string;
  html?: string;
  csv?: string;
  issue?: string;
  stale: number;
  repo?: string;
  remote?: string;
  cacheDir?: string;
  json: boolean;
}

/** The command table's entry: yargs' parsed flags are the track flags. */
export const run = (io: CliIo, a: Args): Promise<number> => trackCmd(io, a as unknown as TrackFlags);

export async function trackCmd(io: CliIo, flags: TrackFlags): Promise<number> {
  const report = await readReport(flags.report, io.cwd);
  try {
    const done = await trackReport(report, {
      cwd: io.cwd,
      env: io.env,
      now: io.clock?.now() ?? Date.now(),
      staleDays: flags.stale,
      hostOptions: hostOptionsFor(io, flags),
      ...(flags.repo !== undefined ? { repoDir: flags.repo } : {}),
      ...(flags.remote !== undefined ? { remote: flags.remote } : {}),
      ...(flags.cacheDir !== undefined ? { cacheDir: flags.cacheDir } : {}),
      ...(flags.history !== undefined ? { history: flags.history } : {}),
      ...(flags.html !== undefined ? { html: flags.html } : {}),
      ...(flags.csv !== undefined ? { csv: flags.csv } : {}),
      ...(flags.issue !== undefined ? { issue: flags.issue } : {}),
    });
    for (const p of done.problems) io.stderr.write(`scion: ${p}\n`);
    const s = done.snapshot;
    if (flags.json) io.stdout.write(`${JSON.stringify({ snapshot: s, rows: done.rows }, null, 2)}\n`);
    else {
      const states = TRACK_STATES.filter((k) => s[k] > 0).map((k) => `${s[k]} ${k}`);
      const flags = `${s.failing} failing, ${s.noReviewer} without reviewer, ${s.stale} stale, ${s.behind} behind`;
      io.stdout.write(`${s.jobs} jobs: ${states.join(', ') || 'none'}; ${flags}; ${s.remaining} files left to change\n`);
      if (done.issue !== null) io.stdout.write(`${done.issue.action} the tracking issue: ${done.issue.url}\n`);
    }
    return done.problems.length > 0 ? 1 : 0;
  } catch (e) {
    if (!isScionError(e, 'host')) throw e;
    io.stderr.write(`scion: ${e.message}\n`);
    return 1;
  }
}
