// Line alignment for one changed region: Myers (jsdiff's diffArrays) on the lines that occur on both
// sides only. A line found on one side alone can never be matched, so leaving it out keeps the
// alignment minimal while Myers, O((N+M)·D), no longer pays for it: a region where every line
// changed costs nothing to align instead of running into the timeout.
import { diffArrays } from 'diff';

export interface Limits {
  readonly timeout: number;
  readonly maxEditLength?: number;
}

export type Op = { readonly kind: 'equal' | 'removed' | 'added'; readonly lines: string[] };

/** The region as runs of equal, removed and added lines; undefined when alignment gave up. */
export function alignLines(oldLines: readonly string[], newLines: readonly string[], limits: Limits): Op[] | undefined {
  const inNew = new Set(newLines);
  const inOld = new Set(oldLines);
  const oldKeep: number[] = [];
  const newKeep: number[] = [];
  oldLines.forEach((l, i) => inNew.has(l) && oldKeep.push(i));
  newLines.forEach((l, i) => inOld.has(l) && newKeep.push(i));
  if (oldKeep.length === 0 || newKeep.length === 0) {
    return [
      { kind: 'removed', lines: [...oldLines] },
      { kind: 'added', lines: [...newLines] },
    ];
  }
  const changes = diffArrays(
    oldKeep.map((i) => oldLines[i] as string),
    newKeep.map((i) => newLines[i] as string),
    { ...limits },
  );
  if (changes === undefined) return undefined;

  // Matched pairs (indexes into the full arrays), in order.
  const pairs: [number, number][] = [];
  let o = 0;
  let n = 0;
  for (const c of changes) {
    if (c.added) n += c.count;
    else if (c.removed) o += c.count;
    else for (let k = 0; k < c.count; k++) pairs.push([oldKeep[o++] as number, newKeep[n++] as number]);
  }
  const ops: Op[] = [];
  const push = (kind: Op['kind'], lines: readonly string[]): void => {
    if (lines.length === 0) return;
    const last = ops[ops.length - 1];
    // In place: a long run of matched lines arrives one line at a time.
    if (last?.kind === kind) for (const l of lines) last.lines.push(l);
    else ops.push({ kind, lines: [...lines] });
  };
  let po = 0;
  let pn = 0;
  for (const [oi, ni] of pairs) {
    push('removed', oldLines.slice(po, oi));
    push('added', newLines.slice(pn, ni));
    push('equal', [oldLines[oi] as string]);
    po = oi + 1;
    pn = ni + 1;
  }
  push('removed', oldLines.slice(po));
  push('added', newLines.slice(pn));
  return ops;
}
