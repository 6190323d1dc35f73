// Per-file figures for the report: group, lines added/removed and the hunks, from base to result.
import { decodeText, makePatch } from '../core/index.js';
import { readBlob, type Repo, type TreeEntry } from '../git/index.js';
import type { FileReport } from '../model/types.js';
import type { Changes } from '../workspace/types.js';

export async function fileReports(
  repo: Repo,
  base: ReadonlyMap<string, TreeEntry>,
  changes: Changes,
  groupOf: (path: string) => string,
): Promise<FileReport[]> {
  const out: FileReport[] = [];
  for (const path of [...changes.keys()].sort()) {
    const entry = base.get(path);
    const before = entry ? await readBlob(repo, entry.oid) : null;
    const after = changes.get(path)?.bytes ?? null;
    const oldText = before ? textOf(before) : '';
    const newText = after ? textOf(after) : '';
    const group = groupOf(path);
    if (oldText === null || newText === null) {
      out.push({ path, group, added: 0, removed: 0, ...(entry ? {} : { created: true }) });
      continue;
    }
    const patch = makePatch(oldText, newText);
    out.push({ path, group, added: patch.added, removed: patch.removed, hunks: patch.hunks, ...(entry ? {} : { created: true }) });
  }
  return out;
}

function textOf(bytes: Uint8Array): string | null {
  const d = decodeText(bytes);
  return d.ok ? d.value.text : null;
}
