// Small HTML helpers shared by the report's parts: escaping, inline code from hint text, chips.
import type { JobReport } from '../model/types.js';

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The hints mark code with backticks, as Markdown does. */
export function withCode(s: string): string {
  return s
    .split('`')
    .map((part, i) => (i % 2 === 1 ? `<code>${esc(part)}</code>` : esc(part)))
    .join('');
}

export function statusChip(job: JobReport): string {
  return `<span class="status status-${job.status}">${job.status}</span>`;
}

export function firstLine(message: string): string {
  return message.split('\n', 1)[0] ?? '';
}

/** A person reads steps 1-based; the JSON report keeps them 0-based. */
export function stepLabel(step: number): string {
  return `step ${step + 1}`;
}

/** JSON that can sit inside a <script> element: no `</script>` or `<!--` can appear in it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
