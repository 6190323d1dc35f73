// The example agent recipe is valid against the recipe schema and says what it should.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatProblem, loadRecipe } from '../../src/recipe/index.js';

describe('recipes/agent-async.yaml', () => {
  it('loads with one per-file agent step and a verify command', async () => {
    const file = fileURLToPath(new URL('../../recipes/agent-async.yaml', import.meta.url));
    const r = await loadRecipe(file);
    if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
    expect(r.recipe.name).toBe('agent-async');
    expect(r.recipe.steps).toHaveLength(1);
    const step = r.recipe.steps[0] as { agent: Record<string, unknown> };
    expect(step.agent).toMatchObject({ per: 'file', maxTurns: 12, maxTokens: 8192, concurrency: 4, batch: false });
    expect(String(step.agent['prompt'])).toContain('fs/promises');
    expect(r.recipe.verify).toHaveLength(1);
  });
});
