// Progress of a run: a live listr2 task list on a terminal, plain line-per-event output elsewhere
// (CI logs), nothing with --json on a terminal-less stdout. Always on stderr: stdout is for results.
import { Listr } from 'listr2';
import type { JobReport } from '../model/types.js';
import type { RunEvent } from '../runner/types.js';
import type { CliIo } from './io.js';

export interface Progress {
  onEvent(e: RunEvent): void;
  /** Resolves once the display has drawn its last frame. */
  done(): Promise<void>;
}

export function makeProgress(io: CliIo, o: { live: boolean; quiet: boolean }): Progress {
  if (o.quiet) return { onEvent: () => undefined, done: async () => undefined };
  return o.live ? liveProgress(io) : plainProgress(io);
}

export function jobLine(r: JobReport): string {
  const where = r.head ? `${r.branch} @ ${r.head.slice(0, 12)}` : r.branch;
  const files = `${r.files.length} file${r.files.length === 1 ? '' : 's'}`;
  const commits = `${r.commits.length} commit${r.commits.length === 1 ? '' : 's'}`;
  const errs = r.errors.length > 0 ? `, ${r.errors.length} error${r.errors.length === 1 ? '' : 's'}` : '';
  return `${r.status}: ${commits}, ${files}${errs} → ${where}`;
}

function plainProgress(io: CliIo): Progress {
  const out = (s: string) => io.stderr.write(`${s}\n`);
  const totals = new Map<string, number>();
  return {
    onEvent(e) {
      switch (e.type) {
        case 'jobs':
          out(`scion: ${e.jobs.length} job${e.jobs.length === 1 ? '' : 's'}`);
          for (const j of e.jobs) totals.set(j.id, j.steps.length);
          return;
        case 'job-start':
          return out(`[${e.job}] start`);
        case 'step-start':
          return out(`[${e.job}] step ${e.step + 1}/${totals.get(e.job) ?? '?'}: ${e.label}`);
        case 'step-end':
          return out(`[${e.job}] step ${e.step + 1} ${e.errors > 0 ? `failed (${e.errors} error${e.errors === 1 ? '' : 's'})` : 'ok'}, ${e.files} file${e.files === 1 ? '' : 's'} changed so far`);
        case 'log':
          return out(`[${e.job}] ${e.message}`);
        case 'job-end':
          return out(`[${e.job}] ${jobLine(e.report)}`);
      }
    },
    done: async () => undefined,
  };
}

interface LiveJob {
  task?: { title: string; output: string | undefined };
  title: string;
  output?: string;
  finish?: (r: JobReport) => void;
  report?: JobReport;
}

function liveProgress(io: CliIo): Progress {
  const jobs = new Map<string, LiveJob>();
  let running: Promise<unknown> = Promise.resolve();
  const settle = (j: LiveJob, r: JobReport) => {
    j.report = r;
    j.finish?.(r);
  };
  return {
    onEvent(e) {
      if (e.type === 'jobs') {
        for (const p of e.jobs) jobs.set(p.id, { title: p.id });
        const list = new Listr(
          e.jobs.map((p) => ({
            title: p.id,
            task: (_: unknown, task: { title: string; output: string | undefined }) =>
              new Promise<void>((resolve, reject) => {
                const j = jobs.get(p.id)!;
                j.task = task;
                if (j.output) task.output = j.output;
                const end = (r: JobReport) => {
                  task.title = `${p.id}: ${jobLine(r)}`;
                  if (r.status === 'failed') reject(new Error(`${p.id}: ${r.errors[0]?.message.split('\n')[0] ?? 'failed'}`));
                  else resolve();
                };
                if (j.report) end(j.report);
                else j.finish = end;
              }),
          })),
          // The CLI owns SIGINT (src/cli/process.ts): listr2's own handler would exit 127.
          { concurrent: true, exitOnError: false, registerSignalListeners: false, renderer: 'default', rendererOptions: { collapseErrors: false } },
        );
        running = list.run().catch(() => undefined);
        return;
      }
      const j = jobs.get(e.job);
      if (!j) return;
      if (e.type === 'step-start') j.output = `step ${e.step + 1}: ${e.label}`;
      else if (e.type === 'log') j.output = e.message;
      else if (e.type === 'job-end') return settle(j, e.report);
      else return;
      if (j.task) j.task.output = j.output;
    },
    done: () => running.then(() => undefined),
  };
}
