// The write budget against a host that enforces GitHub's secondary limits (80 content-creating
// requests a minute, 500 an hour per token): a fake GitHub on loopback refusing every write past them
// with 403 and retry-after, and scion's GitHubHost creating pull requests as fast as its budget lets
// it, with unlimited demand. Time is scaled (SCION_BENCH_TIME_SCALE, default 120: an hour in 30 s) for
// the fake's windows and scion's clock alike. Reported: writes accepted, limit rejections (must be 0),
// and the share of what the host allowed over the run that scion used (must be at least 95%).
import { startFakeGitHub } from '../support/fake-github.js';
import { WriteBudgets, type Clock } from '../../src/host/budget.js';
import { GitHubHost } from '../../src/host/github.js';
import { table } from './support.js';

const SCALE = Number(process.env.SCION_BENCH_TIME_SCALE ?? 120);
const HOURS = Number(process.env.SCION_BENCH_BUDGET_HOURS ?? 2);
const HOUR = 3_600_000;
/** Pull requests created at once (campaign repositories published side by side): enough to reach 80 a minute. */
const WORKERS = Number(process.env.SCION_BENCH_BUDGET_WORKERS ?? 8);

export default async function bench(): Promise<void> {
  const start = Date.now();
  const clock: Clock = {
    now: () => start + (Date.now() - start) * SCALE,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / SCALE)),
  };
  const fake = await startFakeGitHub('acme', 'bench');
  fake.etags = false;
  fake.secondary = { perMinute: 80, perHour: 500, now: clock.now, rejected: 0, accepted: [] };
  // scion's defaults: 80/500 and a guard of 1 s (scaled: 8 ms of real time).
  const writes = new WriteBudgets({ clock });
  let waits: number;
  const host = new GitHubHost({ apiUrl: fake.url, token: 'ghs_bench', owner: 'acme', repo: 'bench', writes, sleep: (ms) => clock.sleep(ms) });
  const end = clock.now() + HOURS * HOUR;
  let sent = 0;
  try {
    // Unlimited demand from WORKERS at once, until the scaled time is up.
    const worker = async () => {
      while (clock.now() < end) {
        const n = sent++;
        await host.createPull({ branch: `scion/bench/${n}`, base: 'main', title: `bench ${n}`, body: '', draft: false });
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    waits = writes.all()[0]?.waits ?? 0;
  } finally {
    await fake.close();
  }
  const accepted = fake.secondary.accepted.filter((t) => t < end).length;
  const allowed = HOURS * 500;
  const used = accepted / allowed;
  const minuteMax = Math.max(...fake.secondary.accepted.map((t) => fake.secondary!.accepted.filter((u) => u > t - 60_000 && u <= t).length));
  console.log(
    table(
      ['scaled time', 'writes accepted', 'limit rejections', 'allowed (500/h)', 'budget used', 'most in one minute', 'waits', 'real seconds'],
      [
        [
          `${HOURS} h (×${SCALE}), ${WORKERS} at once`,
          String(accepted),
          String(fake.secondary.rejected),
          String(allowed),
          `${(used * 100).toFixed(1)}%`,
          String(minuteMax),
          String(waits),
          ((Date.now() - start) / 1000).toFixed(1),
        ],
      ],
    ),
  );
  if (fake.secondary.rejected > 0) throw new Error(`the host refused ${fake.secondary.rejected} writes: the budget let too many through`);
  if (used < 0.95) throw new Error(`scion used ${(used * 100).toFixed(1)}% of the budget the host allowed (at least 95% expected)`);
}
