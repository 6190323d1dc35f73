// The live view of a run on a terminal: finished jobs are printed once, above a small live area
// holding a header (`jobs 37/147 · 1 failed · 12.3 s · ETA 40 s`) and the running jobs, as many as
// the terminal's height allows. Events only change state; the screen is redrawn at most every
// `intervalMs` (one write per frame: erase the old area, print what finished, draw the new area),
// so a run of thousands of events costs a few dozen frames, not thousands.
//
// Hand-rolled instead of log-update or listr2: log-update redraws on every call and listr2 keeps
// every task in its tree (the 150-task frame taller than the screen that made runs 10× slower);
// what is needed here is three escape sequences and a throttle.
import cliTruncate from 'cli-truncate';
import type { JobReport, RunEvent } from '../api/output.js';
import { visible } from '../api/text.js';
import { jobLine, plannedLabel } from './job-line.js';
import { Total } from './total.js';

export interface LiveStream {
  write(s: string): unknown;
  readonly columns?: number;
  readonly rows?: number;
}

export interface LiveOptions {
  readonly intervalMs?: number;
  readonly now?: () => number;
  /** Schedules the redraw tick; tests drive `tick()` themselves. */
  readonly timers?: boolean;
  readonly color?: boolean;
}

interface Running {
  readonly label: string;
  readonly started: number;
  step: string;
}

/** Lines the live area keeps free: the header, the "more running" line and room for the prompt. */
const RESERVED_ROWS = 4;

export class LiveView {
  private readonly total = new Total();
  private done = 0;
  private failed = 0;
  private readonly steps = new Map<string, number>();
  private readonly labels = new Map<string, string>();
  private readonly running = new Map<string, Running>();
  private pending: string[] = [];
  private drawnLines = 0;
  private dirty = false;
  private readonly started: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private lastDraw = 0;

  constructor(
    private readonly out: LiveStream,
    private readonly o: LiveOptions = {},
  ) {
    this.now = o.now ?? Date.now;
    this.started = this.now();
    if (o.timers !== false) {
      this.timer = setInterval(() => this.tick(), o.intervalMs ?? 100);
      this.timer.unref();
    }
  }

  onEvent(e: RunEvent): void {
    switch (e.type) {
      case 'jobs':
        this.total.add(e);
        for (const j of e.jobs) {
          this.steps.set(j.id, j.steps.length);
          this.labels.set(j.id, plannedLabel(j));
        }
        break;
      case 'job-start':
        this.running.set(e.job, { label: this.labels.get(e.job) ?? e.job, started: this.now(), step: 'starting' });
        break;
      case 'step-start': {
        const r = this.running.get(e.job);
        if (r) r.step = `step ${e.step + 1}/${this.steps.get(e.job) ?? '?'}: ${e.label}`;
        break;
      }
      case 'log': {
        const r = this.running.get(e.job);
        if (r) r.step = e.message;
        break;
      }
      case 'job-end':
        this.finish(e.job, e.report);
        break;
      case 'step-end':
        return;
    }
    this.dirty = true;
  }

  private finish(id: string, report: JobReport): void {
    this.running.delete(id);
    this.done += 1;
    if (report.status === 'failed') this.failed += 1;
    const mark = report.status === 'failed' ? '✖' : report.status === 'changed' ? '✔' : '·';
    this.pending.push(`${mark} ${this.labels.get(id) ?? id}: ${jobLine(report)}`);
  }

  /** Redraws when something changed, or once a second for the clock. */
  tick(): void {
    const t = this.now();
    if (this.dirty || t - this.lastDraw >= 1000) this.draw();
  }

  /** The header line: `jobs 37/147 · 1 failed · 12.3 s · ETA 40 s` (`jobs 3/16+ (counting)` while a campaign counts). */
  header(): string {
    const elapsed = (this.now() - this.started) / 1000;
    const parts = [`jobs ${this.done}/${this.total.shown()}${this.total.exact ? '' : ' (counting)'}`];
    if (this.failed > 0) parts.push(`${this.failed} failed`);
    parts.push(`${elapsed.toFixed(1)} s`);
    const total = this.total.value;
    if (this.done > 0 && this.done < total) parts.push(`ETA ${formatSeconds((elapsed / this.done) * (total - this.done))}`);
    return parts.join(' · ');
  }

  /** The live area: the header and the running jobs (oldest first), bounded by the terminal's height. */
  frame(): string[] {
    const width = this.width();
    // A pseudo-terminal without a size reports 0 rows and 0 columns: read as 24 × 80.
    const room = Math.max(1, (this.out.rows || 24) - RESERVED_ROWS);
    const jobs = [...this.running.values()];
    const shown = jobs.length > room ? jobs.slice(0, room - 1) : jobs;
    const t = this.now();
    const lines = [this.header()];
    for (const j of shown) lines.push(`  ${j.label} ${formatSeconds((t - j.started) / 1000)} · ${j.step}`);
    if (shown.length < jobs.length) lines.push(`  … and ${jobs.length - shown.length} more running`);
    return lines.map((l) => fit(l, width));
  }

  /** One write: erase the previous area, print what finished since, draw the area again. */
  draw(): void {
    this.lastDraw = this.now();
    this.dirty = false;
    const width = this.width();
    let s = this.drawnLines > 0 ? `\x1b[${this.drawnLines}F\x1b[0J` : '';
    for (const line of this.pending) s += `${fit(line, width)}\n`;
    this.pending = [];
    const frame = this.frame();
    s += `${frame.join('\n')}\n`;
    this.drawnLines = frame.length;
    this.out.write(s);
  }

  /** The last frame: finished jobs printed, the live area erased (the summary follows). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    let s = this.drawnLines > 0 ? `\x1b[${this.drawnLines}F\x1b[0J` : '';
    for (const line of this.pending) s += `${fit(line, this.width())}\n`;
    this.pending = [];
    this.drawnLines = 0;
    if (s !== '') this.out.write(s);
  }

  private width(): number {
    return Math.max(20, this.out.columns || 80);
  }
}

/** One terminal row: a line longer than the width would wrap and break the cursor arithmetic. */
function fit(line: string, width: number): string {
  return cliTruncate(visible(line.replace(/\r?\n/g, ' ')), width - 1, { position: 'end' });
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(Math.round(s - m * 60)).padStart(2, '0')} s`;
}
