import { describe, expect, it } from 'vitest';
import { matcher, renderTemplate, staticPrefixes } from '../../src/recipe/index.js';

describe('matcher', () => {
  it('selects paths matching an include glob and no exclude glob, dotfiles included', () => {
    const m = matcher({ include: ['src/**/*.ts', 'README.md'], exclude: ['src/vendor/**'] });
    expect(m('src/a.ts')).toBe(true);
    expect(m('src/deep/er/b.ts')).toBe(true);
    expect(m('src/.hidden/c.ts')).toBe(true);
    expect(m('README.md')).toBe(true);
    expect(m('src/vendor/x.ts')).toBe(false);
    expect(m('src/a.js')).toBe(false);
    expect(m('docs/README.md')).toBe(false);
  });

  it('treats "./src/**" like "src/**" and an empty include as nothing', () => {
    expect(matcher({ include: ['./src/**'], exclude: [] })('src/a.ts')).toBe(true);
    expect(matcher({ include: [], exclude: [] })('src/a.ts')).toBe(false);
    expect(matcher({ include: ['**'], exclude: [] })('.github/workflows/ci.yml')).toBe(true);
  });
});

describe('staticPrefixes', () => {
  it('finds the directories a glob set can reach', () => {
    expect(staticPrefixes(['src/**/*.ts'])).toEqual(['src/']);
    expect(staticPrefixes(['**'])).toEqual(['']);
    expect(staticPrefixes(['*.md'])).toEqual(['']);
    expect(staticPrefixes(['README.md'])).toEqual(['']);
    expect(staticPrefixes(['docs/guide/intro.md'])).toEqual(['docs/guide/']);
    expect(staticPrefixes(['packages/*/src/**', 'lib/**'])).toEqual(['lib/', 'packages/']);
    expect(staticPrefixes(['./src/*.ts'])).toEqual(['src/']);
  });

  it('keeps only the widest prefixes, and "" swallows everything', () => {
    expect(staticPrefixes(['src/core/**', 'src/**', 'src/a/b/*.ts'])).toEqual(['src/']);
    expect(staticPrefixes(['src/**', '**/*.md'])).toEqual(['']);
    expect(staticPrefixes([])).toEqual([]);
  });

  it('never prunes a path the globs match', () => {
    const globs = ['src/{core,cli}/**/*.ts', 'packages/*/package.json', 'docs/a.md'];
    const m = matcher({ include: globs, exclude: [] });
    const prefixes = staticPrefixes(globs);
    for (const path of ['src/core/x.ts', 'src/cli/y/z.ts', 'packages/web/package.json', 'docs/a.md']) {
      expect(m(path)).toBe(true);
      expect(prefixes.some((p) => path.startsWith(p))).toBe(true);
    }
  });
});

describe('renderTemplate', () => {
  const vars = { recipe: 'rename-logger', job: 'web', group: 'core', description: 'Move to the new logger', count: 3 };

  it('fills every known placeholder', () => {
    expect(renderTemplate('{{recipe}}/{{job}}: {{description}} ({{group}}, {{count}} files)', vars)).toBe(
      'rename-logger/web: Move to the new logger (core, 3 files)',
    );
    expect(renderTemplate('{{ recipe }}', vars)).toBe('rename-logger');
  });

  it('leaves unknown names and names without a value as written', () => {
    expect(renderTemplate('{{nope}} {{group}}', { recipe: 'r' })).toBe('{{nope}} {{group}}');
  });

  it('inserts values verbatim, even ones holding $& or $1', () => {
    expect(renderTemplate('x {{description}} y', { description: 'cost $& and $1 $$' })).toBe('x cost $& and $1 $$ y');
  });
});
