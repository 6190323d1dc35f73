// The edit engine on big inputs, against a plain split/join measured in the same run:
//  - 1,000 edits spread over a 5 MB file, as one applyEdits sequence and as 1,000 single calls;
//  - one replace_all with 100,000 occurrences.
// Each engine result is checked against its baseline's text. The split/join baselines are timed on
// the first 200 edits (per-edit cost is flat; the whole 1,000 would add a minute to the run).
import { applyEdits, decodeText, encodeText, type Edit } from '../../src/core/index.js';

const LINES = 100_000;
const EDITS = 1_000;
const SAMPLE = 200;

function bigFile(): string {
  const out: string[] = [];
  for (let i = 0; i < LINES; i++) out.push(`  const v${i} = compute(${i}, "some filler");`);
  return out.join('\n') + '\n';
}

function time<T>(fn: () => T): { ms: number; value: T } {
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`benchmark result differs from the baseline: ${what}`);
}

const splitJoin = (s: string, edits: readonly Edit[]): string => edits.reduce((t, e) => t.split(e.old_string).join(e.new_string), s);

export default async function run(): Promise<void> {
  const content = bigFile();
  const bytes = encodeText(content, 'utf8', 'LF');
  const step = Math.floor(LINES / EDITS);
  const edits: Edit[] = Array.from({ length: EDITS }, (_, k) => {
    const i = k * step + 7;
    return { old_string: `const v${i} = compute(${i},`, new_string: `const v${i} = computeFast(${i},` };
  });
  const sample = edits.slice(0, SAMPLE);

  // Baselines: split/join on the string, and the same with the bytes decoded and encoded around it,
  // the least a bytes-in, bytes-out call has to do.
  const plain = time(() => splitJoin(content, sample));
  const plainBytes = time(() => {
    let b = bytes;
    for (const e of sample) b = new TextEncoder().encode(splitJoin(new TextDecoder('utf-8', { fatal: true }).decode(b), [e]));
    return b;
  });
  const plainPerEdit = plain.ms / SAMPLE;
  const bytesPerEdit = plainBytes.ms / SAMPLE;
  const expectedAll = splitJoin(content, edits);

  const sequence = time(() => applyEdits({ path: 'big.ts', bytes }, edits));
  check(sequence.value.ok && sequence.value.value.newText === expectedAll, 'sequence');

  const singles = time(() => {
    let b = bytes;
    for (const e of edits) {
      const r = applyEdits({ path: 'big.ts', bytes: b }, [e]);
      if (!r.ok) throw new Error(r.error.message);
      b = r.value.after;
    }
    return b;
  });
  const singleText = decodeText(singles.value);
  check(singleText.ok && singleText.value.text === expectedAll, 'single calls');

  const all = time(() => applyEdits({ path: 'big.ts', bytes }, [{ old_string: 'compute(', new_string: 'computeAll(', replace_all: true }]));
  const allPatch = time(() => (all.value.ok ? all.value.value.patch : null));
  const allPlain = time(() => content.split('compute(').join('computeAll('));
  check(all.value.ok && all.value.value.newText === allPlain.value, 'replace_all');
  // The patch is built on first read; time that read on its own for the other cases too.
  const seqPatch = time(() => (sequence.value.ok ? sequence.value.value.patch : null));

  const ms = (x: number) => (x >= 100 ? `${x.toFixed(0)} ms` : `${x.toFixed(2)} ms`);
  const rows = [
    [
      '1,000 edits, one applyEdits sequence',
      sequence.ms,
      sequence.ms / EDITS,
      plainPerEdit,
      `+ ${ms(seqPatch.ms)} to read its patch (${seqPatch.value?.hunks.length ?? 0} hunks)`,
    ],
    [
      '1,000 single applyEdits calls, bytes in/out',
      singles.ms,
      singles.ms / EDITS,
      plainPerEdit,
      `${(singles.ms / EDITS / bytesPerEdit).toFixed(2)}x decode+split/join+encode (${ms(bytesPerEdit)}/edit)`,
    ],
    [
      'replace_all, 100,000 occurrences (one call)',
      all.ms,
      all.ms,
      allPlain.ms,
      `+ ${ms(allPatch.ms)} to read its patch (+${allPatch.value?.added ?? 0} -${allPatch.value?.removed ?? 0} lines)`,
    ],
  ] as const;
  console.log(`file: ${(bytes.length / 1e6).toFixed(1)} MB, ${LINES} lines; Node ${process.version}\n`);
  console.log('| case | engine total | engine per call/edit | split/join per edit | ratio | note |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const [name, total, per, base, note] of rows) {
    console.log(`| ${name} | ${ms(total)} | ${ms(per)} | ${ms(base)} | ${(per / base).toFixed(2)}x | ${note} |`);
  }
}
