// batch: true — each round of the per-file conversations goes out as one Message Batch.
import { describe, expect, it } from 'vitest';
import { runAgentStep } from '../../src/agent/index.js';
import { memFiles, step, testEnvsAfterEach } from './mem-files.js';
import { customTools, done, firstMessageText, scripted, tool } from './script.js';
import { fakeApisAfterEach } from '../support/servers.js';

const fakeApi = fakeApisAfterEach();
const testEnv = testEnvsAfterEach();

const USAGE = { input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
const script = () =>
  scripted(
    {
      'src/a.js': [[tool('edit_file', { file_path: 'src/a.js', old_string: 'foo', new_string: 'bar' })], done()],
      'src/b.js': [
        [tool('edit_file', { file_path: 'src/b.js', old_string: 'nope', new_string: 'bar' })],
        [tool('edit_file', { file_path: 'src/b.js', old_string: 'foo', new_string: 'bar' })],
        done(),
      ],
    },
    USAGE,
  );

describe('Message Batches', () => {
  it('sends each round as one batch (create, retrieve until ended, results JSONL) with the same results as the interactive path', async () => {
    const api = await fakeApi(script(), { batchPolls: 2 });
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': 'foo\n', 'src/b.js': 'foo\n' });
    const out = await runAgentStep(step({ batch: true, model: 'claude-sonnet-4-5' }), files, env);

    expect(out.errors).toEqual([]);
    expect(files.text('src/a.js')).toBe('bar\n');
    expect(files.text('src/b.js')).toBe('bar\n');
    expect(api.messages()).toHaveLength(0);
    const creates = api.batches();
    // Round 1: both files; round 2: both (a finishes, b retries); round 3: b alone.
    expect(creates.map((c) => c.body.requests.map((r) => r.custom_id))).toEqual([['f0', 'f1'], ['f0', 'f1'], ['f1']]);
    expect(customTools(creates[0]!.body.requests[0]!.params).map((t) => t.name)).toEqual([
      'read_file',
      'edit_file',
      'write_file',
      'notebook_edit',
      'glob',
      'grep',
      'astgrep_search',
    ]);
    const polls = api.requests.filter((r) => r.method === 'GET' && /^\/v1\/messages\/batches\/[^/]+$/.test(r.path));
    expect(polls.length).toBeGreaterThanOrEqual(6);
    expect(api.requests.filter((r) => r.path.endsWith('/results'))).toHaveLength(3);

    // Five responses at half of $3 / $15 per million.
    expect(out.usage.inputTokens).toBe(5000);
    expect(out.usage.outputTokens).toBe(500);
    expect(out.usage.costUsd).toBeCloseTo((5000 * 3 + 500 * 15) / 1e6 / 2, 9);
  });

  it('fails the conversations of a batch request that errored, with kind agent', async () => {
    const api = await fakeApi((body) =>
      firstMessageText(body).includes('src/b.js')
        ? { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } } }
        : script()(body),
    );
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': 'foo\n', 'src/b.js': 'foo\n' });
    const out = await runAgentStep(step({ batch: true }), files, env);
    expect(files.text('src/a.js')).toBe('bar\n');
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]!.file).toBe('src/b.js');
    expect(out.errors[0]!.failure.kind).toBe('agent');
    expect(out.errors[0]!.failure.message).toContain('prompt is too long');
  });

  it('gives up on a batch that does not end before its deadline, and cancels it', async () => {
    const api = await fakeApi(script(), { batchPolls: 1_000 });
    const env = await testEnv(api.url, { client: { maxRetries: 0, batchPollMs: 5, batchPollMaxMs: 10, batchDeadlineMs: 60 } });
    const out = await runAgentStep(step({ batch: true }), memFiles({ 'src/a.js': 'foo\n' }), env);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]!.file).toBe('src/a.js');
    expect(out.errors[0]!.failure.message).toContain('had not ended');
    expect(api.requests.some((r) => r.method === 'POST' && r.path.endsWith('/cancel'))).toBe(true);
  });
});
