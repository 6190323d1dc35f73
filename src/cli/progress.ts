// Progress of a run, always on stderr (stdout is for results): the live view on a terminal
// (live.ts), plain line-per-event output elsewhere (CI logs), each line prefixed with `[done/total]`.
import ciInfo from 'ci-info';
import type { RunEvent } from '../api/output.js';
import { styled, type CliIo } from './io.js';
import { jobLine } from './job-line.js';
import { LiveView } from './live.js';
import { Total } from './total.js';
import { plural } from '../api/text.js';

export { jobLine } from './job-line.js';

export interface Progress {
  onEvent(e: RunEvent): void;
  /** Resolves once the display has drawn its last frame. */
  done(): Promise<void>;
}

export type ProgressMode = 'live' | 'plain' | 'quiet';

/** Live on a terminal that is not a CI log; plain otherwise. */
export function progressMode(io: CliIo): ProgressMode {
  return io.stderr.isTTY === true && !isCi(io.env) ? 'live' : 'plain';
}

/** ci-info reads the process's own environment; an injected one (tests) is read the same way. */
function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env === process.env) return ciInfo.isCI;
  if (env['CI'] === 'false') return false;
  return Boolean(env['CI'] || env['CONTINUOUS_INTEGRATION'] || env['BUILD_NUMBER'] || env['RUN_ID'] || env['GITHUB_ACTIONS']);
}

export function makeProgress(io: CliIo, mode: ProgressMode): Progress {
  if (mode === 'quiet') return { onEvent: () => undefined, done: async () => undefined };
  if (mode === 'plain') return plainProgress(io);
  const view = new LiveView(styled(io.stderr));
  return {
    onEvent: (e) => view.onEvent(e),
    done: async () => view.stop(),
  };
}

export function plainProgress(io: CliIo): Progress {
  const total = new Total();
  let finished = 0;
  const out = (s: string) => io.stderr.write(`[${finished}/${total.shown()}] ${s}\n`);
  const steps = new Map<string, number>();
  return {
    onEvent(e) {
      switch (e.type) {
        case 'jobs': {
          for (const j of e.jobs) steps.set(j.id, j.steps.length);
          const said = total.add(e);
          return said === null ? undefined : io.stderr.write(`scion: ${said}\n`);
        }
        case 'job-start':
          return out(`${e.job}: start`);
        case 'step-start':
          return out(`${e.job}: step ${e.step + 1}/${steps.get(e.job) ?? '?'}: ${e.label}`);
        case 'step-end':
          return out(
            `${e.job}: step ${e.step + 1} ${e.errors > 0 ? `failed (${plural(e.errors, 'error')})` : 'ok'}, ${plural(e.files, 'file')} changed so far`,
          );
        case 'log':
          return out(`${e.job}: ${e.message}`);
        case 'job-end':
          finished += 1;
          return out(`${e.job}: ${jobLine(e.report)}`);
      }
    },
    done: async () => undefined,
  };
}
