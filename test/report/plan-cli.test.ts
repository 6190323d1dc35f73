// `scion plan` through the CLI: plain text with not one escape when NO_COLOR is set, with
// `--color never` or into a pipe; colour with `--color always` (over NO_COLOR too) or FORCE_COLOR;
// and on a real pseudo-terminal (`script`, `stty cols N`, the CLI as its own process) rows that fit the
// terminal, escapes kept whole, a reset at the end of every coloured row, the gutter dropped when
// the terminal is too narrow for it.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scion } from '../support/cli.js';
import { gitRepo, type TestRepo } from '../support/git-repo.js';
import { recipeFile } from '../support/recipe-file.js';
import { SCION_COMMAND } from '../support/spawn-cli.js';
import { brokenEscapes, plainText, styleOf, visibleWidth } from './ansi-parse.js';

const LONG = `  const message = ${Array.from({ length: 6 }, (_, i) => `"part ${i} of a long line"`).join(' + ')};`;

let repo: TestRepo;
let recipe: string;

beforeAll(async () => {
  repo = await gitRepo({
    'src/log.ts': `import { legacyLog } from "./legacy";\n\nexport function main(): void {\n  legacyLog("start");\n${LONG}\n}\n`,
  });
  recipe = recipeFile(`name: rename
steps:
  - replace: { old_string: "legacyLog", new_string: "log", replace_all: true }
  - replace: { old_string: "part 4", new_string: "piece 4" }
`);
});
afterAll(() => repo.cleanup());

describe('scion plan: colour on and off', () => {
  const plan = (env: Record<string, string | undefined>, flags: string[] = [], tty = false) =>
    scion(['plan', recipe, '--repo', repo.dir, ...flags], { cwd: repo.dir, env: { NO_COLOR: undefined, TERM: 'xterm-256color', ...env }, tty });

  it('prints no escape at all into a pipe, with NO_COLOR, or with --color never', async () => {
    for (const [env, flags, tty] of [
      [{}, [], false],
      [{ NO_COLOR: '1' }, [], true],
      [{ FORCE_COLOR: '1' }, ['--color', 'never'], true],
    ] as const) {
      const r = await plan(env, [...flags], tty);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('-  legacyLog("start");');
      expect(r.stdout).toContain('+  log("start");');
      expect(r.stdout).not.toContain('\x1b');
    }
  });

  it('colours with --color always (over NO_COLOR), FORCE_COLOR, or on a terminal', async () => {
    for (const [env, flags, tty] of [
      [{ NO_COLOR: '1' }, ['--color', 'always'], false],
      [{ FORCE_COLOR: '2' }, [], false],
      [{}, [], true],
    ] as const) {
      const r = await plan(env, [...flags], tty);
      const line = r.stdout.split('\n').find((l) => plainText(l).includes('+import { log }'))!;
      expect(styleOf(line, 'import').fg).toBe('35');
      expect(styleOf(line, 'log').bg).not.toBe(styleOf(line, ' } ').bg);
      expect(brokenEscapes(r.stdout)).toBe(0);
    }
  });

  it('refuses a --color value it does not know, before running anything', async () => {
    const r = await plan({}, ['--color', 'sometimes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/color/);
    expect(r.stdout).toBe('');
  });
});

/** `scion plan` on a pseudo-terminal of `cols` columns; its stdout rows as the terminal got them, the diff's and the summary's. */
function onTerminal(cols: number): { rows: string[]; diff: string[] } {
  const cli = SCION_COMMAND.map((a) => `'${a}'`).join(' ');
  const cmd = `stty cols ${cols} rows 200; exec ${cli} plan '${recipe}' --repo '${repo.dir}' 2>/dev/null`;
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], {
    cwd: repo.dir,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TERM: 'xterm-256color', CI: 'false' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const rows = r.stdout.split(/\r?\n/).filter((l) => l !== '');
  const summary = rows.findIndex((l) => plainText(l).startsWith('changed '));
  expect(summary).toBeGreaterThan(0);
  return { rows, diff: rows.slice(0, summary) };
}

describe('scion plan on a real terminal', () => {
  it('wraps long lines to the width, keeping escapes whole and ending each row with a reset', () => {
    const { rows, diff } = onTerminal(60);
    const text = rows.join('\n');
    expect(text).toContain('\x1b[');
    expect(brokenEscapes(text)).toBe(0);
    for (const row of rows) expect(visibleWidth(row)).toBeLessThan(60);
    for (const row of diff) if (row.includes('\x1b')) expect(row.endsWith('\x1b[0m')).toBe(true);
    // The long line is there whole, over several rows that continue under the gutter.
    const plain = diff.map(plainText);
    const first = plain.findIndex((r) => r.includes('+  const message'));
    expect(plain[first + 1]).toMatch(/^ +│ {2}/);
    expect(
      plain
        .slice(first, first + 4)
        .map((r) => r.slice(r.indexOf('│') + 3))
        .join(''),
    ).toContain('"piece 4 of a long line"');
    expect(plain).toContain('  4 │ +  log("start");');
  });

  it('drops the gutter on a terminal narrower than the gutter plus 20 columns', () => {
    const { rows, diff } = onTerminal(24);
    const plain = diff.map(plainText);
    expect(plain).toContain('+  log("start");');
    expect(plain.filter((r) => r.includes('│'))).toEqual([]);
    for (const row of rows) expect(visibleWidth(row)).toBeLessThan(24);
  });
});
