// The agent's grep runs the model's pattern under a deadline: catastrophic backtracking is refused
// with kind timeout instead of hanging the job.
import { describe, expect, it } from 'vitest';
import { Guards } from '../../src/agent/guards/index.js';
import { Mutex } from '../../src/agent/mutex.js';
import { ReadStates } from '../../src/agent/read-state.js';
import { grep } from '../../src/agent/tools/search.js';
import type { Failure } from '../../src/errors.js';
import { memFiles } from './mem-files.js';

describe('grep', () => {
  it('ends (a+)+$ over 30 a and ! with a timeout refusal', async () => {
    const refused: Failure[] = [];
    const ctx = {
      files: memFiles({ 'a.txt': 'fine\n', 'b.txt': `${'a'.repeat(30)}!\n` }),
      reads: new ReadStates(),
      lock: new Mutex(),
      touched: new Map<string, string | null>(),
      refused: (_tool: string, _path: string | null, f: Failure) => refused.push(f),
      guards: new Guards(undefined, () => {}),
      guardRefusals: [],
    };
    const out = await grep(ctx, { pattern: '(a+)+$' }, 300);
    expect(out.isError).toBe(true);
    expect(out.content).toContain('Error (timeout)');
    expect(refused.map((f) => f.kind)).toEqual(['timeout']);
    const ok = await grep(ctx, { pattern: 'fi(n)e' }, 2000);
    expect(ok).toEqual({ content: 'a.txt:1: fine', isError: false });
  });
});
