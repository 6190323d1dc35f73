// A codemod makes the same change in many files: the same import line in 89 packages, the same call
// in every repository of a campaign. A description that printed each copy would spend its whole size
// budget on one change and then leave most diffs out; instead each distinct change is shown once,
// where it first appears, with the files that have the same change named under it.
import type { FileReport, JobReport } from '../model/types.js';

/** A file of a job. */
export interface DiffPlace {
  readonly job: JobReport;
  readonly file: FileReport;
}

/** Every place (first one first) that holds the same change as a file. */
export type SameDiffs = ReadonlyMap<FileReport, readonly DiffPlace[]>;

/**
 * The files of `jobs` whose change is the same as another's, each mapped to all the places holding
 * that change, in the order they are listed. The same change means the same removed, added and
 * context lines, and the same creation or deletion: where in the file it sits (the hunk's line
 * numbers) and the path do not count. Files whose change is their own are left out.
 */
export function sameDiffs(jobs: readonly JobReport[]): SameDiffs {
  const byKey = new Map<string, DiffPlace[]>();
  for (const job of jobs) {
    for (const file of job.files) {
      if ((file.hunks?.length ?? 0) === 0) continue;
      const key = diffKey(file);
      const places = byKey.get(key);
      if (places) places.push({ job, file });
      else byKey.set(key, [{ job, file }]);
    }
  }
  const out = new Map<FileReport, readonly DiffPlace[]>();
  for (const places of byKey.values()) {
    if (places.length < 2) continue;
    for (const p of places) out.set(p.file, places);
  }
  return out;
}

function diffKey(f: FileReport): string {
  return JSON.stringify([f.created === true, f.deleted === true, f.oldMode ?? null, f.mode ?? null, (f.hunks ?? []).map((h) => h.lines)]);
}
