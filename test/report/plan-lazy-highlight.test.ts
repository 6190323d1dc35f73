// A `plan` without colour never loads highlight.js: the CLI runs as its own process with a module
// resolve hook (node's module.register) that writes down every module the process resolves, static
// imports and dynamic ones alike. Colour off (NO_COLOR, `--color never`, a pipe): not one module of
// highlight.js. The same run with colour forced is the control: there the hook sees highlight.js's
// core and the TypeScript grammar, so the log is known to catch them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { SCION_COMMAND } from '../support/spawn-cli.js';

const HOOKS = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(log, r.url + '\\n');
  return r;
}
`;
const REGISTER = `import { register } from 'node:module';
register('./hooks.mjs', import.meta.url, { data: { log: process.env.SCION_TEST_MODULE_LOG } });
`;

let repo: TestRepo;
let recipe: string;
let hooks: string;

beforeAll(async () => {
  repo = await gitRepo({ 'src/log.ts': 'import { legacyLog } from "./legacy";\n\nexport function main(): void {\n  legacyLog("start");\n}\n' });
  recipe = recipeFile('name: rename\nsteps:\n  - replace: { old_string: "legacyLog", new_string: "log", replace_all: true }\n');
  hooks = mkdtempSync(join(tmpdir(), 'scion-module-log-'));
  writeFileSync(join(hooks, 'hooks.mjs'), HOOKS);
  writeFileSync(join(hooks, 'register.mjs'), REGISTER);
});
afterAll(async () => {
  await repo.cleanup();
  rmSync(hooks, { recursive: true, force: true });
});

let runs = 0;

/** `scion plan` as a process (stdout a pipe) with the resolve hook after tsx's; its output and every module URL it resolved. */
function planModules(env: Record<string, string>, flags: string[] = []): { code: number | null; stdout: string; modules: string[] } {
  const log = join(hooks, `modules-${runs++}.log`);
  const [node, ...rest] = SCION_COMMAND;
  // rest is `--import <tsx> <entry>`: the hook is registered after tsx, so it sees what tsx resolved.
  const args = [...rest.slice(0, 2), '--import', join(hooks, 'register.mjs'), ...rest.slice(2), 'plan', recipe, '--repo', repo.dir, ...flags];
  const r = spawnSync(node!, args, {
    cwd: repo.dir,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], CI: 'true', TERM: 'xterm-256color', SCION_TEST_MODULE_LOG: log, ...env },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return { code: r.status, stdout: r.stdout, modules: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

const highlightJs = (modules: readonly string[]) => modules.filter((u) => /\/node_modules\/highlight\.js\//.test(u));

describe('scion plan loads highlight.js only for colour', () => {
  it('loads it when colour is forced (the control: the log sees it)', () => {
    const r = planModules({ FORCE_COLOR: '2' });
    expect(r.stdout).toContain('\x1b[');
    const hl = highlightJs(r.modules);
    // Its ESM entry points (es/) or the CommonJS ones (lib/), whichever the package's exports give.
    expect(hl.some((u) => /\/highlight\.js\/(es|lib)\/core\.js$/.test(u))).toBe(true);
    expect(hl.some((u) => /\/highlight\.js\/(es|lib)\/languages\/typescript\.js$/.test(u))).toBe(true);
    // Our own modules are in the log too: it is the whole process's.
    expect(r.modules.some((u) => u.endsWith('/src/report/terminal-diff.ts'))).toBe(true);
  });

  it('never loads it with NO_COLOR, --color never, or into a pipe', () => {
    for (const [env, flags] of [
      [{ NO_COLOR: '1' }, []],
      [{ FORCE_COLOR: '2' }, ['--color', 'never']],
      [{}, []],
    ] as const) {
      const r = planModules(env, [...flags]);
      expect(r.stdout).toContain('+  log("start");');
      expect(r.stdout).not.toContain('\x1b');
      expect(r.modules.some((u) => u.endsWith('/src/report/terminal-diff.ts'))).toBe(true);
      expect(highlightJs(r.modules)).toEqual([]);
    }
  });
});
