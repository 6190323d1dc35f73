// Ids for inserted cells (nbformat 4.5+). The seed draws them at random; here they are derived from
// the notebook, position and source, so rerunning a recipe reproduces the same bytes.
import { createHash } from 'node:crypto';

export function deriveCellId(notebookText: string, index: number, source: string, taken: ReadonlySet<string>): string {
  for (let attempt = 0; ; attempt++) {
    const id = createHash('sha256').update(`${notebookText}\0${index}\0${source}\0${attempt}`).digest('hex').slice(0, 8);
    if (!taken.has(id)) return id;
  }
}

/** nbformat added cell ids in 4.5. */
export function supportsCellIds(nb: { nbformat?: unknown; nbformat_minor?: unknown }): boolean {
  const major = typeof nb.nbformat === 'number' ? nb.nbformat : 0;
  const minor = typeof nb.nbformat_minor === 'number' ? nb.nbformat_minor : 0;
  return major > 4 || (major === 4 && minor >= 5);
}
