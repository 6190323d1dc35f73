// Conversation-level failures (the only ones that are job errors) and the SDK's own retries.
import { describe, expect, it } from 'vitest';
import { runAgentStep } from '../../src/agent/index.js';
import { waitFor } from '../support/processes.js';
import { KEY, memFiles, step, testEnvsAfterEach } from './mem-files.js';
import { done, firstMessageText, message, scripted, tool, type ToolResult, toolResults, turnOf } from './script.js';
import { fakeApisAfterEach } from '../support/servers.js';

const fakeApi = fakeApisAfterEach();
const testEnv = testEnvsAfterEach();

describe('limits and failures', () => {
  it('fails with kind agent, naming the file, when the model is still calling tools after maxTurns', async () => {
    const loop = () => [tool('read_file', { file_path: 'src/a.js' })];
    const api = await fakeApi(scripted({ 'src/a.js': [loop, loop, loop, loop], 'src/b.js': [done()] }));
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': 'a\n', 'src/b.js': 'b\n' });
    const out = await runAgentStep(step({ maxTurns: 3 }), files, env);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]!.file).toBe('src/a.js');
    expect(out.errors[0]!.failure.kind).toBe('agent');
    expect(out.errors[0]!.failure.message).toContain('src/a.js');
    expect(out.errors[0]!.failure.message).toContain('maxTurns (3)');
    expect(api.messages().filter((r) => firstMessageText(r.body).includes('src/a.js'))).toHaveLength(3);
  });

  it('retries a 429 through the SDK and then succeeds', async () => {
    let calls = 0;
    const ok = scripted({ 'src/a.js': [[tool('edit_file', { file_path: 'src/a.js', old_string: 'foo', new_string: 'bar' })], done()] });
    const api = await fakeApi((body) => {
      calls++;
      if (calls === 1) {
        return {
          status: 429,
          headers: { 'retry-after': '0', 'retry-after-ms': '5' },
          json: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
        };
      }
      return ok(body);
    });
    const env = await testEnv(api.url, { client: { maxRetries: 2 } });
    const files = memFiles({ 'src/a.js': 'foo\n' });
    const out = await runAgentStep(step(), files, env);
    expect(out.errors).toEqual([]);
    expect(api.messages()).toHaveLength(3);
    expect(files.text('src/a.js')).toBe('bar\n');
  });

  it('fails with kind agent when the API keeps refusing after the retries, without the key in the message', async () => {
    const api = await fakeApi(() => ({
      status: 529,
      headers: { 'retry-after-ms': '1' },
      json: { type: 'error', error: { type: 'overloaded_error', message: `overloaded (key ${KEY})` } },
    }));
    const env = await testEnv(api.url, { client: { maxRetries: 1 } });
    const out = await runAgentStep(step(), memFiles({ 'src/a.js': 'foo\n' }), env);
    expect(api.messages()).toHaveLength(2);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]!.failure.kind).toBe('agent');
    expect(out.errors[0]!.failure.message).toContain('529');
    expect(out.errors[0]!.failure.message).not.toContain(KEY);
    expect(out.errors[0]!.failure.message).toContain('***');
  });

  it('fails before any request when ANTHROPIC_API_KEY is missing from the step environment', async () => {
    const api = await fakeApi(scripted({ 'src/a.js': [done()] }));
    const env = await testEnv(api.url, { vars: { ANTHROPIC_API_KEY: undefined } });
    const out = await runAgentStep(step(), memFiles({ 'src/a.js': 'foo\n' }), env);
    expect(api.requests).toHaveLength(0);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]!.failure.kind).toBe('agent');
    expect(out.errors[0]!.failure.message).toContain('ANTHROPIC_API_KEY');
    expect(out.usage).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
  });

  it('does not run a tool call cut off by max_tokens, and tells the model so', async () => {
    let seen: ToolResult[] = [];
    const api = await fakeApi((body) => {
      if (turnOf(body) === 0) return message([tool('write_file', { file_path: 'src/a.js', content: 'half a fi' })], undefined, 'max_tokens');
      seen = toolResults(body);
      return message(done());
    });
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': 'foo\n' });
    const out = await runAgentStep(step(), files, env);
    expect(out.errors).toEqual([]);
    expect(seen[0]!.is_error).toBe(true);
    expect(seen[0]!.content).toContain('cut off at maxTokens (1024)');
    expect(files.text('src/a.js')).toBe('foo\n');
  });

  it('fails the conversations still running when timeoutMs runs out, cancelling the request in flight', async () => {
    // The second turn is never answered: only the step's own timeout can end it.
    const api = await fakeApi((body) => (turnOf(body) === 0 ? message([tool('glob', { pattern: '**' })]) : { ...message(done()), hang: true }));
    const env = await testEnv(api.url);
    const out = await runAgentStep(step({ timeoutMs: 200 }), memFiles({ 'src/a.js': 'foo\n' }), env);
    await waitFor(() => api.abandoned() === 1);
    expect(api.messages()).toHaveLength(2);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]!.file).toBe('src/a.js');
    expect(out.errors[0]!.failure.kind).toBe('agent');
    expect(out.errors[0]!.failure.message).toContain('ran out of time');
  });

  it('reports the files never started when timeoutMs runs out, in one error', async () => {
    const api = await fakeApi(() => ({ ...message(done()), hang: true }));
    const env = await testEnv(api.url);
    const files = memFiles({ 'src/a.js': 'a\n', 'src/b.js': 'b\n', 'src/c.js': 'c\n' });
    const out = await runAgentStep(step({ timeoutMs: 150, concurrency: 1 }), files, env);
    expect(out.errors.map((e) => e.file)).toEqual([null, 'src/a.js']);
    expect(out.errors[0]!.failure.message).toContain('before it started 2 file(s): src/b.js, src/c.js');
    expect(api.messages()).toHaveLength(1);
  });

  it('refuses a maxTokens the SDK cannot send without streaming, before any request', async () => {
    const api = await fakeApi(scripted({ 'src/a.js': [done()] }));
    const env = await testEnv(api.url);
    const out = await runAgentStep(step({ maxTokens: 64_000 }), memFiles({ 'src/a.js': 'foo\n' }), env);
    expect(api.requests).toHaveLength(0);
    expect(out.errors[0]!.failure.kind).toBe('agent');
    expect(out.errors[0]!.failure.message).toContain('maxTokens 64000');
  });
});
