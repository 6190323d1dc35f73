// The summary's lines about the model: each job's refused edits, a plan's cost estimate, what a
// --max-cost run spent, and a --sample run's failures clustered by cause.
import type { Paint } from './ansi.js';
import { visible } from './ansi.js';
import { formatCost, jobLabel } from './summary-data.js';
import { num, plural } from '../util/plural.js';
import type { EstimateReport, JobReport, RunReport } from '../model/types.js';

/** Files listed per estimate before the rest are counted. */
const MAX_FILES = 20;

/** Under a job: every edit a guard refused, one line each. */
export function refusalLines(job: JobReport, p: Paint): string[] {
  const refusals = job.refusals ?? [];
  if (refusals.length === 0) return [];
  const out = [`  ${p.yellow(`guards refused ${plural(refusals.length, 'model edit')}:`)}`];
  for (const r of refusals) out.push(`    step ${r.step + 1}, ${visible(r.file)}: ${r.guard} (${r.tool})`);
  return out;
}

/** After the jobs: the plan's estimate, the budget, the sample's clusters. */
export function agentSummaryLines(report: RunReport, p: Paint): string[] {
  return [...estimateLines(report, p), ...budgetLines(report), ...sampleLines(report, p)];
}

function estimateLines(report: RunReport, p: Paint): string[] {
  const jobs = report.jobs.filter((j) => (j.estimates ?? []).length > 0);
  if (jobs.length === 0) return [];
  const out = [p.bold('Agent estimate (no request was sent; tokens are UTF-8 bytes / 4):')];
  let min = 0;
  let max = 0;
  let unpriced = false;
  for (const job of jobs) {
    for (const e of job.estimates ?? []) {
      const size = `${plural(e.conversations, 'conversation')}, ~${num(e.inputTokens)} input tokens`;
      out.push(`  ${visible(jobLabel(job))} step ${e.step + 1} (${describe(e)}): ${size}, ${range(e)}`);
      for (const f of e.files.slice(0, MAX_FILES)) out.push(`    ${visible(f.path)}  ~${num(f.tokens)} tokens`);
      if (e.files.length > MAX_FILES) out.push(`    … and ${plural(e.files.length - MAX_FILES, 'more file')}`);
      if (e.minUsd === null || e.maxUsd === null) unpriced = true;
      else {
        min += e.minUsd;
        max += e.maxUsd;
      }
    }
  }
  const note = unpriced ? ' (models without a known price left out)' : '';
  out.push(`  Total: ${formatCost(min)} – ${formatCost(max)}${note}: one pass over each context at least, maxTurns full answers at most.`);
  return out;
}

function describe(e: EstimateReport): string {
  const what = e.per === 'fix' ? 'verify fix rounds' : `agent, per ${e.per}`;
  return `${what}, ${e.model}`;
}

function range(e: EstimateReport): string {
  return e.minUsd === null || e.maxUsd === null ? `no price known for ${e.model}` : `${formatCost(e.minUsd)} – ${formatCost(e.maxUsd)}`;
}

function budgetLines(report: RunReport): string[] {
  const b = report.budget;
  if (!b) return [];
  const stopped = b.notStarted > 0 ? `; ${plural(b.notStarted, 'conversation')} not started (kind budget)` : '';
  return [`Budget: ${formatCost(b.spentUsd)} spent of --max-cost ${formatCost(b.maxCostUsd)}${stopped}.`];
}

function sampleLines(report: RunReport, p: Paint): string[] {
  const s = report.sample;
  if (!s) return [];
  const of = s.of === null ? 'spread over the repositories' : `of ${num(s.of)}`;
  const out = [p.bold(`Sample: ${plural(s.jobs, 'job')} ${of}.`)];
  if (s.clusters.length === 0) {
    out.push('  No failures in the sample.');
    return out;
  }
  out.push('  Failures by cause:');
  const width = Math.max(...s.clusters.map((c) => plural(c.count, 'job').length));
  for (const c of s.clusters) out.push(`  ${plural(c.count, 'job').padEnd(width)}  ${p.red(c.kind)}  ${visible(c.cause)}`);
  return out;
}
