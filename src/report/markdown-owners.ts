// What a pull request of a job split by owner says about its owners: who they are, which CODEOWNERS
// lines made them the owners (file:line, section), who is asked for review and who cannot be (an
// e-mail address, a GitLab role); and, for a run, the pieces grouped under the job they came from.
import { mdCode, mdText } from './md.js';
import { statusBadge } from './markdown-parts.js';
import { jobLabel } from './summary-data.js';
import { plural } from '../util/plural.js';
import type { JobReport } from '../model/types.js';

const DIALECT = { github: 'GitHub', gitlab: 'GitLab' } as const;
/** Rules listed per piece at most; the JSON report holds them all. */
const MAX_RULES = 30;

/** Owners as CODEOWNERS writes them, as one line of Markdown ("nobody" for a piece no rule owns). */
export function ownersText(owners: readonly string[]): string {
  return owners.length === 0 ? 'nobody' : owners.map((o) => mdCode(o)).join(', ');
}

/** The owners section of a piece's pull request; '' for a job that was not split. */
export function ownersSection(job: JobReport, heading: string): string {
  const split = job.split;
  if (split === undefined) return '';
  const owners = job.owners ?? [];
  const reader = DIALECT[split.codeowners];
  const lines = [`${heading} Owners\n\n`];
  lines.push(`This is the part of job ${mdCode(split.job)} owned by ${ownersText(owners)}: piece ${mdCode(split.piece)}.`);
  if (split.directory !== null)
    lines.push(
      ` It holds the files under ${mdCode(split.directory === '' ? '/' : `${split.directory}/`)} (a piece of more than \`maxFiles\` files is cut by folder).`,
    );
  lines.push('\n\n');
  if (split.file === null) {
    lines.push(`The base commit has no CODEOWNERS file where ${reader} looks for one, so every changed file is in the piece ${mdCode('unowned')}.\n\n`);
  } else if (split.rules.length === 0) {
    lines.push(`No line of ${mdCode(split.file)} (read as ${reader} reads it, at the base commit) owns these files.\n\n`);
  } else {
    lines.push(`Why, from ${mdCode(split.file)} at the base commit (read as ${reader} reads it):\n\n`);
    for (const r of split.rules.slice(0, MAX_RULES)) {
      const section = r.section === null ? '' : ` in section ${mdCode(`[${r.section}]`)}`;
      lines.push(`- ${mdCode(`${split.file}:${r.line}`)} ${mdCode(r.pattern)}${section}: ${plural(r.files, 'file')}\n`);
    }
    if (split.rules.length > MAX_RULES) lines.push(`- … and ${plural(split.rules.length - MAX_RULES, 'more rule')}: see the JSON report.\n`);
    lines.push('\n');
  }
  const emails = owners.filter((o) => !o.startsWith('@'));
  const roles = owners.filter((o) => o.startsWith('@@'));
  const asked = owners.filter((o) => o.startsWith('@') && !o.startsWith('@@'));
  if (asked.length > 0) lines.push(`Review is requested from ${ownersText(asked)}.\n`);
  if (emails.length > 0) lines.push(`Owners by e-mail (a review cannot be requested from an address): ${emails.map((e) => mdText(e)).join(', ')}.\n`);
  if (roles.length > 0) lines.push(`Owners by role (left to ${reader}'s own approval rules): ${ownersText(roles)}.\n`);
  lines.push('\n');
  return lines.join('');
}

/**
 * For a run's description: each job split by owner with its pieces under it (owners, branch, status,
 * files, pull request); '' when no job was split.
 */
export function splitJobsSection(jobs: readonly JobReport[], heading: string): string {
  const groups = new Map<string, JobReport[]>();
  for (const j of jobs) {
    if (j.split === undefined) continue;
    const key = `${j.repo ?? ''}\0${j.recipe}\0${j.split.job}`;
    groups.set(key, [...(groups.get(key) ?? []), j]);
  }
  if (groups.size === 0) return '';
  const out = [`${heading} Jobs split by owner\n\n`];
  for (const pieces of groups.values()) {
    const first = pieces[0]!;
    const where = first.repo === undefined ? '' : `${mdCode(first.repo)} · `;
    const job = jobLabel({ ...first, name: first.split!.job });
    out.push(
      `- ${where}**${mdText(job)}**: ${plural(pieces.length, 'piece')}${first.split!.file === null ? ' (no CODEOWNERS file: one piece, `unowned`)' : ''}\n`,
    );
    for (const p of pieces) {
      const pr = p.pullRequest ? ` · [#${p.pullRequest.number}](${p.pullRequest.url})` : '';
      out.push(
        `  - ${mdCode(p.split!.piece)} · ${ownersText(p.owners ?? [])} · ${mdCode(p.branch)} · ` +
          `${statusBadge(p.status)} · ${plural(p.files.length, 'file')}${pr}\n`,
      );
    }
  }
  out.push('\n');
  return out.join('');
}
