// A campaign with structural steps: the recipe's rule file and transform are loaded once, beside the
// recipe, and the astgrep and jscodeshift steps run in each repository's cached clone (object level:
// no worktree); the nightly rerun over unchanged repositories writes nothing. Native git judges the clones' branches.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clonePath } from '../../src/campaign/clone-cache.js';
import type { RunReport } from '../../src/model/types.js';
import { scion } from '../support/cli.js';
import { gitRepo, runGit } from '../support/git-repo.js';
import { useGitServer } from '../support/servers.js';

const NAMES = ['alpha', 'beta'];
const RULE = 'id: c2l\nlanguage: typescript\nrule: { pattern: "console.log($$$A)" }\nfix: "logger.info($$$A)"\n';
// The JavaScript files get the same rename from a jscodeshift transform.
const TRANSFORM = [
  'export default function (file, api) {',
  '  const j = api.jscodeshift;',
  '  const root = j(file.source);',
  "  root.find(j.MemberExpression, { object: { name: 'console' }, property: { name: 'log' } }).forEach((p) => {",
  "    p.node.object.name = 'logger';",
  "    p.node.property.name = 'info';",
  '  });',
  '  return root.toSource();',
  '}',
  '',
].join('\n');

describe('a campaign with astgrep and jscodeshift steps', () => {
  const server = useGitServer();
  let work: string;
  const id = (name: string) => `${new URL(server.url).host}/acme/${name}`;
  const run = (args: string[]) => scion(args, { cwd: work, env: { ...server.githubEnv(), HOME: '/nonexistent' } });
  const cloneOf = (name: string) => clonePath(join(work, 'cache'), { id: id(name), url: '', path: null, ref: null });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'scion-structural-campaign-'));
    const urls: string[] = [];
    for (const name of NAMES) {
      const bare = server.bare(`acme/${name}.git`);
      const src = await gitRepo({ 'src/a.ts': `console.log('${name}',\n  1);\n`, 'src/b.js': 'console.log(2);\n' });
      src.git('push', '-q', bare.dir, 'main');
      await src.cleanup();
      urls.push(bare.url);
    }
    await mkdir(join(work, 'rules'));
    writeFileSync(join(work, 'rules', 'c2l.yml'), RULE);
    writeFileSync(join(work, 'c2l.mjs'), TRANSFORM);
    writeFileSync(
      join(work, 'recipe.yaml'),
      'name: c2l\nsteps:\n  - astgrep: { ruleFile: rules/c2l.yml }\n    expect: { min: 1 }\n  - jscodeshift: { transform: ./c2l.mjs }\n',
    );
    writeFileSync(join(work, 'repos.txt'), `${urls.join('\n')}\n`);
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('rewrites each repository on its own branch; a rerun over unchanged repositories leaves every job unchanged', async () => {
    const first = await run(['run', 'recipe.yaml', '--repos', 'repos.txt', '--cache-dir', 'cache', '--report', 'first.json']);
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(work, 'first.json'), 'utf8')) as RunReport;
    expect(report.jobs.map((j) => [j.repo, j.status, j.worktree, j.files.map((f) => [f.path, f.matches])])).toEqual(
      NAMES.map((n) => [
        id(n),
        'changed',
        null,
        [
          ['src/a.ts', 1],
          ['src/b.js', undefined],
        ],
      ]),
    );
    for (const name of NAMES) {
      const dir = cloneOf(name);
      expect(runGit(dir, 'show', 'scion/c2l:src/a.ts')).toBe(`logger.info('${name}',\n  1);`);
      expect(runGit(dir, 'show', 'scion/c2l:src/b.js')).toBe('logger.info(2);');
      // Object level: the bare clone never got a worktree.
      expect(runGit(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
      runGit(dir, 'fsck', '--strict', '--no-dangling');
    }
    const again = await run(['run', 'recipe.yaml', '--repos', 'repos.txt', '--cache-dir', 'cache', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as RunReport).jobs.map((j) => j.status)).toEqual(['unchanged', 'unchanged']);
  });
});
