// Token and cost totals, and the response cache that makes a scheduled rerun free.
import { describe, expect, it } from 'vitest';
import { costOf, priceOf, runAgentStep } from '../../src/agent/index.js';
import { KEY, memFiles, step, testEnvsAfterEach } from './mem-files.js';
import { done, scripted, tool } from './script.js';
import { fakeApisAfterEach } from '../support/servers.js';

const fakeApi = fakeApisAfterEach();
const testEnv = testEnvsAfterEach();

const USAGE = { input_tokens: 1000, output_tokens: 200, cache_creation_input_tokens: 300, cache_read_input_tokens: 500 };

const renameScript = () =>
  scripted(
    {
      'src/a.js': [[tool('edit_file', { file_path: 'src/a.js', old_string: 'foo', new_string: 'bar', replace_all: true })], done()],
      'src/b.js': [done('Nothing to do.')],
    },
    USAGE,
  );
const initial = () => ({ 'src/a.js': 'foo(foo)\r\n', 'src/b.js': 'nothing\n' });

describe('usage and cost', () => {
  it('sums input, output, cache-read and cache-write tokens of every response and prices them per model', async () => {
    const api = await fakeApi(renameScript());
    const env = await testEnv(api.url);
    const out = await runAgentStep(step({ model: 'claude-sonnet-4-5-20250929' }), memFiles(initial()), env);
    expect(out.errors).toEqual([]);
    expect(api.messages()).toHaveLength(3);
    const { costUsd, ...tokens } = out.usage;
    expect(tokens).toEqual({ inputTokens: 3000, outputTokens: 600, cacheReadTokens: 1500, cacheWriteTokens: 900 });
    // Three responses of USAGE, priced per million tokens: $3 in, $15 out, $3.75 cache write, $0.30 cache read.
    expect(costUsd).toBeCloseTo((3000 * 3 + 600 * 15 + 900 * 3.75 + 1500 * 0.3) / 1e6, 12);
  });

  it('prices an unknown model at zero and says so in the log', async () => {
    const api = await fakeApi(renameScript());
    const env = await testEnv(api.url, { vars: { SCION_MODEL: 'claude-imaginary-9' } });
    const out = await runAgentStep(step(), memFiles(initial()), env);
    expect(api.messages()[0]!.body.model).toBe('claude-imaginary-9');
    expect(out.usage.inputTokens).toBe(3000);
    expect(out.usage.costUsd).toBe(0);
    expect(env.logs.some((l) => l.includes('no price is known for model claude-imaginary-9'))).toBe(true);
  });

  it('has a dated price table with batch at half price and dated ids matching their family only', () => {
    const sonnet = priceOf('claude-sonnet-4-5')!;
    const t = { input: 1_000_000, output: 1_000_000, cacheWrite: 0, cacheRead: 0 };
    expect(costOf(sonnet, t, false)).toBe(18);
    expect(costOf(sonnet, t, true)).toBe(9);
    expect(priceOf('claude-haiku-4-5-20251001')).toEqual(priceOf('claude-haiku-4-5'));
    expect(priceOf('claude-opus-4-99')).toBeNull();
    expect(priceOf('toString')).toBeNull();
  });
});

describe('response cache', () => {
  it('replays a rerun over unchanged files with zero requests and zero cost, listing the cached files', async () => {
    const api = await fakeApi(renameScript());
    const first = await testEnv(api.url);
    const one = memFiles(initial());
    await runAgentStep(step(), one, first);
    expect(api.messages()).toHaveLength(3);

    const before = api.requests.length;
    const two = memFiles(initial());
    const out = await runAgentStep(step(), two, { ...first, log: (m) => first.logs.push(m) });
    expect(api.requests.length).toBe(before);
    expect(out.errors).toEqual([]);
    expect(out.usage).toMatchObject({ inputTokens: 0, outputTokens: 0, costUsd: 0, cachedFiles: ['src/a.js', 'src/b.js'] });
    // Same bytes as the model's edit, CRLF kept.
    expect(two.text('src/a.js')).toBe('bar(bar)\r\n');
    expect(two.writes).toEqual(['src/a.js']);
  });

  it('never stores or logs the API key (the request did carry it)', async () => {
    const api = await fakeApi(renameScript());
    const env = await testEnv(api.url);
    await runAgentStep(step(), memFiles(initial()), env);
    const headers = api.messages()[0]!.headers;
    expect(`${headers['authorization'] ?? ''} ${headers['x-api-key'] ?? ''}`).toContain(KEY);
    const cached = await env.cacheFiles();
    expect(cached.length).toBe(2);
    for (const f of cached) expect(f.text).not.toContain(KEY);
    expect(cached.map((f) => JSON.parse(f.text).file).sort()).toEqual(['src/a.js', 'src/b.js']);
    expect(env.logs.length).toBeGreaterThan(0);
    for (const l of env.logs) expect(l).not.toContain(KEY);
  });

  it('asks the model again with noCache, and writes nothing to the cache when read-only', async () => {
    const api = await fakeApi(renameScript());
    const env = await testEnv(api.url, { cacheReadOnly: true });
    await runAgentStep(step(), memFiles(initial()), env);
    expect(await env.cacheFiles()).toEqual([]);

    const writing = await testEnv(api.url);
    await runAgentStep(step(), memFiles(initial()), writing);
    const n = api.messages().length;
    await runAgentStep(step(), memFiles(initial()), { ...writing, noCache: true });
    expect(api.messages().length).toBe(n + 3);
  });

  it('treats a cached answer as a miss when a file it changed is no longer as it was, and writes nothing stale', async () => {
    // The conversation of a.js also creates lib/util.js.
    const api = await fakeApi(
      scripted({
        'src/a.js': [[tool('write_file', { file_path: 'lib/util.js', content: 'export const util = 1;\n' })], done()],
      }),
    );
    const env = await testEnv(api.url);
    await runAgentStep(step(), memFiles({ 'src/a.js': 'a\n' }), env);
    expect(api.messages()).toHaveLength(2);

    // Rerun: a.js is the same (same key), but lib/util.js now exists with other content.
    const files = memFiles({ 'src/a.js': 'a\n', 'lib/util.js': 'export const mine = 2;\n' });
    const out = await runAgentStep(step({ files: { include: ['src/**'] } }), { ...files, paths: () => ['src/a.js'] }, env);
    expect(api.messages().length).toBeGreaterThan(2);
    expect(out.usage.cachedFiles).toBeUndefined();
    // The model was asked again; its write_file over an unread existing file was refused.
    expect(files.text('lib/util.js')).toBe('export const mine = 2;\n');
    expect(env.logs.some((l) => l.includes('not replayed (the file changed since)'))).toBe(true);
  });
});
