// What a .gitmodules holds is checked as git's fsck checks it, whoever writes it: recipe steps
// (write, edit, replace, transform, run) and the agent's tools, under every name git reads as a
// .gitmodules. Native git is the judge: for each rule, `git fsck --strict` refuses a commit of the
// bad file, and scion refuses to write it (kind invalid-result, the rule named); a good .gitmodules
// is written and passes the same fsck.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/model/types.js';
import { KEY } from '../agent/mem-files.js';
import { done, scripted, tool, toolResults } from '../agent/script.js';
import { reposAfterEach } from '../support/cleanups.js';
import { scion } from '../support/cli.js';
import { gitEnv, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { fakeApisAfterEach } from '../support/servers.js';

const repo = reposAfterEach();
const fakeApi = fakeApisAfterEach();

const HEAD = '[submodule "lib"]\n\tpath = lib\n';
const GOOD_URL = '\turl = https://example.com/lib.git\n';

/** One bad .gitmodules per fsck rule (and per way of breaking it), with the -c options the judge needs. */
const CASES: { rule: string; content: string; judge?: string[] }[] = [
  { rule: 'gitmodulesUrl', content: `${HEAD}\turl = --upload-pack=touch /tmp/pwned\n` },
  { rule: 'gitmodulesUrl', content: `${HEAD}\turl = ./lib%0aevil\n` },
  { rule: 'gitmodulesUrl', content: `${HEAD}\turl = ../:evil\n` },
  { rule: 'gitmodulesUrl', content: `${HEAD}\turl = https:///example.com/lib.git\n` },
  { rule: 'gitmodulesUrl', content: `${HEAD}\turl = http::example.com/lib.git\n` },
  { rule: 'gitmodulesUrl', content: `${HEAD}\turl = https://example.com%0a.evil/lib.git\n` },
  { rule: 'gitmodulesName', content: `[submodule "../../hooks"]\n\tpath = lib\n${GOOD_URL}` },
  { rule: 'gitmodulesName', content: `[submodule "lib\\\\..\\\\x"]\n\tpath = lib\n${GOOD_URL}` },
  { rule: 'gitmodulesName', content: `[submodule ""]\n\tpath = lib\n` },
  { rule: 'gitmodulesPath', content: `[submodule "lib"]\n\tpath = --lib\n${GOOD_URL}` },
  { rule: 'gitmodulesUpdate', content: `${HEAD}${GOOD_URL}\tupdate = !sh -c 'touch /tmp/pwned'\n` },
  // fsck only warns about a .gitmodules it cannot parse; servers that refuse it set fsck.gitmodulesParse=error.
  { rule: 'gitmodulesParse', content: `[submodule "lib"\n\tpath = lib\n`, judge: ['-c', 'fsck.gitmodulesParse=error'] },
  { rule: 'gitmodulesParse', content: `${HEAD}\turl = "https://example.com/lib.git\n`, judge: ['-c', 'fsck.gitmodulesParse=error'] },
  { rule: 'gitmodulesParse', content: `${HEAD}\tbranch = ma\\in\n`, judge: ['-c', 'fsck.gitmodulesParse=error'] },
  { rule: 'gitmodulesParse', content: `\ufeff${HEAD}${GOOD_URL}`, judge: ['-c', 'fsck.gitmodulesParse=error'] },
  // A .gitmodules git will not load whole (core.bigFileThreshold) is not checked by fsck: an error of its own.
  { rule: 'gitmodulesLarge', content: `${HEAD}${GOOD_URL}# ${'x'.repeat(1 << 20)}\n`, judge: ['-c', 'core.bigFileThreshold=1m'] },
];

/** Every name git reads as a .gitmodules (case, NTFS short names and trailing dots, HFS+ ignorables, backslash). */
const ALIASES = ['.GITMODULES', '.gitmodules.', 'gitmod~1', 'sub/.gitmodules', '.g\u200ditmodules', 'win\\.gitmodules'];

const GOOD = [
  '# submodules of this repository\r\n',
  '[submodule "lib"]\r\n',
  '\tpath = vendor/lib ; where it lives\n',
  '\turl = ../lib.git\n',
  '\tbranch = "main"\n',
  '\tupdate = rebase\n',
  '[submodule "tools/a.b"]\n',
  '\tpath = tools/a.b\n',
  '\turl = git@github.com:acme/tools.git\n',
  '[submodule "caf\u00e9"]\n',
  '\tpath = caf\u00e9\n',
  '\turl = https://user@example.com:8443/caf%C3%A9.git?x=1 \\\n',
  '\tignored = true\n',
  '[submodule "nested"]\n\tpath = a/b\n\turl = ./nested\n\tshallow\n',
].join('');

/**
 * Native git's verdict on a commit holding `files`, made in a scratch repository: the fsck rules it
 * reported (empty: it passed). The blobs go in a pack and the trees stay loose, so fsck (loose
 * objects first) meets each tree before the blobs it names: a .gitmodules too large to load is only
 * reported in that order, as when a server checks a pushed pack whose trees come first.
 */
function judge(files: Record<string, string>, config: string[] = []): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'scion-judge-'));
  try {
    const git = (args: string[], input = '') => spawnSync('git', args, { cwd: dir, env: gitEnv(), encoding: 'utf8', input });
    git(['init', '-q']);
    const blobs: string[] = [];
    for (const [path, content] of Object.entries(files)) {
      writeFileSync(join(dir, 'blob'), content);
      const oid = git(['hash-object', '-w', 'blob']).stdout.trim();
      blobs.push(oid);
      git(['update-index', '--add', '--cacheinfo', `100644,${oid},${path}`]);
    }
    git(['pack-objects', '-q', '.git/objects/pack/pack'], `${blobs.join('\n')}\n`);
    git(['prune-packed']);
    const tree = git(['write-tree']).stdout.trim();
    git(['update-ref', 'HEAD', git(['commit-tree', tree, '-m', 'judge']).stdout.trim()]);
    const fsck = git([...config, 'fsck', '--strict', '--no-progress', '--no-dangling']);
    const rules = [...`${fsck.stdout}${fsck.stderr}`.matchAll(/(gitmodules[A-Za-z]+)/g)].map((m) => m[1]!);
    return fsck.status === 0 ? [] : [...new Set(rules)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function branches(r: TestRepo): string[] {
  return r.git('for-each-ref', '--format=%(refname)', 'refs/heads/').split('\n');
}

async function runJson(r: TestRepo, file: string, env: Record<string, string> = {}): Promise<{ code: number; report: RunReport }> {
  const res = await scion(['run', file, '--repo', r.dir, '--json'], { cwd: r.dir, env });
  if (!res.stdout.startsWith('{')) throw new Error(`scion exited ${res.code}: ${res.stderr}`);
  return { code: res.code, report: JSON.parse(res.stdout) as RunReport };
}

const writeStep = (file: string, content: string): string => `  - write: { file: ${JSON.stringify(file)}, content: ${JSON.stringify(content)} }`;

describe('a .gitmodules git fsck refuses', () => {
  it('is refused by a write step for every fsck rule, where native fsck refuses the same file; nothing is committed', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    for (const c of CASES) expect(judge({ '.gitmodules': c.content }, c.judge), JSON.stringify(c.content.slice(0, 80))).toEqual([c.rule]);
    const recipe = recipeFile(`name: gm\nonError: continue\nsteps:\n${CASES.map((c) => writeStep('.gitmodules', c.content)).join('\n')}\n`);
    const { code, report } = await runJson(r, recipe);
    expect(code).toBe(1);
    const job = report.jobs[0]!;
    expect(job.errors.map((e) => [e.step, e.kind, e.code])).toEqual(CASES.map((_, i) => [i, 'invalid-result', 10]));
    for (const [i, e] of job.errors.entries()) expect(e.message).toContain(`git fsck (${CASES[i]!.rule}`);
    const told = /^"\.gitmodules" is read by git as a \.gitmodules.*\(gitmodulesUrl, line 3\): .*--upload-pack.*command-line option\. Nothing was written/;
    expect(job.errors[0]!.message).toMatch(told);
    expect(job.head).toBeNull();
    expect(branches(r)).toEqual(['refs/heads/main']);
    r.git('fsck', '--strict', '--no-progress');
  });

  it('is refused under every name git reads as a .gitmodules', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const bad = `${HEAD}\turl = --upload-pack=x\n`;
    for (const name of ALIASES) expect(judge({ [name]: bad }), name).toEqual(['gitmodulesUrl']);
    const recipe = recipeFile(`name: alias\nonError: continue\nsteps:\n${ALIASES.map((n) => writeStep(n, bad)).join('\n')}\n`);
    const { report } = await runJson(r, recipe);
    expect(report.jobs[0]!.errors.map((e) => [e.file, e.kind])).toEqual(ALIASES.map((n) => [n, 'invalid-result']));
    expect(branches(r)).toEqual(['refs/heads/main']);
  });

  it('is refused from edit, replace, transform and run steps; the rest of their work is committed', async () => {
    const good = `${HEAD}${GOOD_URL}`;
    const r = await repo({ '.gitmodules': good, 'docs/lib.md': 'Clone https://example.com/lib.git\n', 'a.txt': 'a\n' });
    const dir = recipeFile('', 'unused').replace(/unused$/, '');
    const recipe = `${dir}gm.mjs`;
    writeFileSync(
      recipe,
      `export default {
  name: 'writers',
  onError: 'continue',
  steps: [
    { edit: { file: '.gitmodules', edits: [{ old_string: 'path = lib', new_string: 'path = -lib' }] } },
    { replace: { old_string: 'https://example.com/lib.git', new_string: '--upload-pack=x' } },
    { transform: ({ path, content }) => (path === '.gitmodules' ? content + '\\tupdate = !make pwn\\n' : undefined) },
    { run: "printf '[submodule \\"../x\\"]\\\\n\\\\tpath = x\\\\n' > .gitmodules && printf 'ran\\\\n' > ran.txt" },
  ],
};
`,
    );
    const { code, report } = await runJson(r, recipe);
    expect(code).toBe(1);
    const job = report.jobs[0]!;
    expect(job.errors.map((e) => [e.step, e.file, e.kind, (e.message.match(/gitmodules[A-Z][a-z]+/) ?? [])[0]])).toEqual([
      [0, '.gitmodules', 'invalid-result', 'gitmodulesPath'],
      [1, '.gitmodules', 'invalid-result', 'gitmodulesUrl'],
      [2, '.gitmodules', 'invalid-result', 'gitmodulesUpdate'],
      [3, '.gitmodules', 'invalid-result', 'gitmodulesName'],
    ]);
    expect(job.errors[3]!.message).toMatch(/^The command `printf .*` wrote "\.gitmodules" with content git refuses \(gitmodulesName, line 1: .*put back/);
    // The other files of those steps went through; .gitmodules is the base's, byte for byte.
    expect(r.git('show', 'scion/writers:docs/lib.md')).toBe('Clone --upload-pack=x');
    expect(r.git('show', 'scion/writers:ran.txt')).toBe('ran');
    expect(r.git('rev-parse', 'scion/writers:.gitmodules')).toBe(r.git('rev-parse', 'main:.gitmodules'));
    r.git('-c', 'fsck.gitmodulesParse=error', 'fsck', '--strict', '--no-progress');
  });

  it("is refused from the agent's write_file and edit_file, told to the model, which then writes a good one", async () => {
    const answers: { content: string; is_error?: boolean }[][] = [];
    const api = await fakeApi(
      scripted({
        job: [
          [
            tool('write_file', { file_path: '.gitmodules', content: `${HEAD}\turl = --upload-pack=x\n` }),
            tool('write_file', { file_path: 'gitmod~1', content: `${HEAD}\tupdate = !make pwn\n` }),
            tool('read_file', { file_path: 'sub/.gitmodules' }),
            tool('edit_file', { file_path: 'sub/.gitmodules', old_string: 'path = lib', new_string: 'path = -lib' }),
          ],
          (body) => {
            answers.push(toolResults(body));
            return [tool('write_file', { file_path: '.gitmodules', content: `${HEAD}${GOOD_URL}` })];
          },
          done(),
        ],
      }),
    );
    const r = await repo({ 'src/a.js': 'export const foo = 1;\n', 'sub/.gitmodules': `${HEAD}${GOOD_URL}` });
    const { report } = await runJson(r, recipeFile('name: agent-gm\nsteps:\n  - agent: { prompt: "Add the lib submodule", per: job, maxTurns: 4 }\n'), {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: api.url,
    });
    const job = report.jobs[0]!;
    expect(job.errors).toEqual([]);
    expect(answers[0]!.map((a) => a.is_error ?? false)).toEqual([true, true, false, true]);
    expect(answers[0]![0]!.content).toMatch(/gitmodulesUrl/);
    expect(answers[0]![1]!.content).toMatch(/gitmodulesUpdate/);
    expect(answers[0]![3]!.content).toMatch(/gitmodulesPath/);
    expect(r.git('ls-tree', '-r', '--name-only', 'scion/agent-gm').split('\n')).toEqual(['.gitmodules', 'src/a.js', 'sub/.gitmodules']);
    expect(r.git('rev-parse', 'scion/agent-gm:sub/.gitmodules')).toBe(r.git('rev-parse', 'main:sub/.gitmodules'));
    r.git('-c', 'fsck.gitmodulesParse=error', 'fsck', '--strict', '--no-progress');
  });

  it('is refused when it holds a byte git reads differently in a blob and in a checkout (0xFF ends a blob for fsck)', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    const bytes = Buffer.concat([Buffer.from(`${HEAD}#`), Buffer.from([0xff]), Buffer.from('\n\turl = --upload-pack=x\n')]);
    const source = recipeFile('', 'gitmodules.bin');
    writeFileSync(source, bytes);
    // A checkout reads on past the 0xFF: the url fsck never saw is the one git would use.
    expect(spawnSync('git', ['config', '-f', source, 'submodule.lib.url'], { env: gitEnv(), encoding: 'utf8' }).stdout.trim()).toBe('--upload-pack=x');
    const { report } = await runJson(r, recipeFile(`name: ff\nsteps:\n  - run: ${JSON.stringify(`cp '${source}' .gitmodules`)}\n`));
    const job = report.jobs[0]!;
    expect(job.errors.map((e) => [e.file, e.kind])).toEqual([['.gitmodules', 'invalid-result']]);
    expect(job.errors[0]!.message).toContain('0xFF');
    expect(branches(r)).toEqual(['refs/heads/main']);
  });
});

describe('a .gitmodules git fsck accepts', () => {
  it('is written and committed as given, under its own name and an alias, and passes fsck --strict', async () => {
    const r = await repo({ 'a.txt': 'a\n' });
    expect(judge({ '.gitmodules': GOOD, 'sub/.GITMODULES': GOOD }, ['-c', 'fsck.gitmodulesParse=error'])).toEqual([]);
    const recipe = recipeFile(`name: good\nsteps:\n${writeStep('.gitmodules', GOOD)}\n${writeStep('sub/.GITMODULES', GOOD)}\n`);
    const { code, report } = await runJson(r, recipe);
    expect(report.jobs[0]!.errors).toEqual([]);
    expect(code).toBe(0);
    expect(r.git('cat-file', 'blob', 'scion/good:.gitmodules')).toBe(GOOD.trimEnd());
    expect(r.git('cat-file', 'blob', 'scion/good:sub/.GITMODULES')).toBe(GOOD.trimEnd());
    r.git('-c', 'fsck.gitmodulesParse=error', 'fsck', '--strict', '--no-progress');
  });
});
