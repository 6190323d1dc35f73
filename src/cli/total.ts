// The run's job total as both progress displays show it. One repository's run announces its jobs
// once; a campaign says its total before the first clone and corrects it as repositories report
// their own jobs, shown as `16+` (and said once in words) while some of them are still being counted.
import type { RunEvent } from '../api/output.js';
import { num, plural } from '../api/text.js';

type JobsEvent = Extract<RunEvent, { type: 'jobs' }>;

export class Total {
  private jobs = 0;
  private counting = false;
  private announced = false;

  /** Takes a `jobs` event; returns the line to say about it, or null when there is nothing new to say. */
  add(e: JobsEvent): string | null {
    if (e.total === undefined) {
      this.jobs += e.jobs.length;
      return plural(e.jobs.length, 'job');
    }
    const was = this.shown();
    this.jobs = e.total.jobs;
    this.counting = e.total.counting;
    const where = plural(e.total.repositories, 'repository', 'repositories');
    if (!this.announced) {
      this.announced = true;
      return this.counting
        ? `at least ${plural(this.jobs, 'job')} in ${where} (the rest are counted as each repository is read)`
        : `${plural(this.jobs, 'job')} in ${where}`;
    }
    if (this.shown() === was) return null;
    return this.counting ? `${num(this.jobs)} jobs counted so far` : `${plural(this.jobs, 'job')} in all`;
  }

  /** `16`, or `16+` while still counting. */
  shown(): string {
    return `${this.jobs}${this.counting ? '+' : ''}`;
  }

  get value(): number {
    return this.jobs;
  }

  get exact(): boolean {
    return !this.counting;
  }
}
