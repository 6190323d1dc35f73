// Per-file figures for the report: group, lines added/removed and the hunks, from base to result.
import { decodeFile, makePatch } from '../core/index.js';
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
    const state = changes.get(path) ?? null;
    const before = entry ? await readBlob(repo, entry.oid) : null;
    const after = state?.bytes ?? null;
    const oldText = before ? textOf(before) : { text: '', encoding: 'utf8' as const };
    const newText = after ? textOf(after) : { text: '', encoding: 'utf8' as const };
    const shape = {
      ...(entry ? {} : { created: true }),
      ...(state === null ? { deleted: true } : {}),
      ...(state !== null && state.mode !== '100644' ? { mode: state.mode } : {}),
      ...(entry && state !== null && entry.mode !== state.mode ? { oldMode: entry.mode } : {}),
      ...(state === null && entry && entry.mode !== '100644' ? { oldMode: entry.mode } : {}),
    };
    const group = groupOf(path);
    if (oldText === null || newText === null) {
      out.push({ path, group, added: 0, removed: 0, ...shape });
      continue;
    }
    const encoding = newText.encoding !== 'utf8' ? newText.encoding : oldText.encoding;
    const patch = makePatch(oldText.text, newText.text);
    out.push({ path, group, added: patch.added, removed: patch.removed, hunks: patch.hunks, ...shape, ...(encoding !== 'utf8' ? { encoding } : {}) });
  }
  return out;
}

/**
 * The text as git diffs it: every byte of a line kept (a CRLF line's CR, a UTF-8 BOM at the start),
 * so the hunks read as `git diff` prints them and `plan --patch` applies. null: not text.
 */
function textOf(bytes: Uint8Array): { text: string; encoding: 'utf8' | 'utf8-bom' | 'utf16le' } | null {
  const d = decodeFile(bytes);
  if (!d.ok) return null;
  return { text: d.value.encoding === 'utf8-bom' ? `\uFEFF${d.value.raw}` : d.value.raw, encoding: d.value.encoding };
}
