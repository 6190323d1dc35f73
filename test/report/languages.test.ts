// The path → grammar table: every grammar it names is one highlight.js ships (the terminal imports it
// by that name), and the guesses a reviewer relies on hold.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadHighlighter, readHtml } from '../../src/report/highlight.js';
import { languageOf } from '../../src/report/languages.js';

const require = createRequire(import.meta.url);

describe('languageOf', () => {
  it('guesses by extension, by file name and by #! line', () => {
    expect(languageOf('src/a.ts')).toBe('typescript');
    expect(languageOf('web/App.TSX')).toBe('typescript');
    expect(languageOf('lib/x.mjs')).toBe('javascript');
    expect(languageOf('deploy/Dockerfile')).toBe('dockerfile');
    expect(languageOf('Dockerfile.prod')).toBe('dockerfile');
    expect(languageOf('Makefile')).toBe('makefile');
    expect(languageOf('config/app.yml')).toBe('yaml');
    expect(languageOf('.bashrc')).toBe('bash');
    expect(languageOf('bin/tool', '#!/usr/bin/env python3')).toBe('python');
    expect(languageOf('bin/tool', '#!/usr/bin/env -S node --no-warnings')).toBe('javascript');
    expect(languageOf('bin/run', '#!/bin/bash -e')).toBe('bash');
    expect(languageOf('LICENSE')).toBeUndefined();
    expect(languageOf('data.unknown')).toBeUndefined();
  });

  it('names only grammars highlight.js ships, and each loads', async () => {
    const names = new Set<string>();
    const probe = [
      'a.ts',
      'a.js',
      'a.json',
      'a.py',
      'a.rb',
      'a.go',
      'a.rs',
      'a.java',
      'a.kt',
      'a.scala',
      'a.groovy',
      'a.gradle',
      'a.c',
      'a.cpp',
      'a.m',
      'a.cs',
      'a.fs',
      'a.vb',
      'a.swift',
      'a.dart',
      'a.php',
      'a.pl',
      'a.lua',
      'a.r',
      'a.jl',
      'a.ex',
      'a.erl',
      'a.hs',
      'a.elm',
      'a.clj',
      'a.ml',
      'a.nim',
      'a.zig',
      'a.sh',
      'a.ps1',
      'a.bat',
      'a.css',
      'a.scss',
      'a.less',
      'a.styl',
      'a.html',
      'a.md',
      'a.txt',
      'a.yaml',
      'a.toml',
      'a.properties',
      'a.sql',
      'a.graphql',
      'a.proto',
      'a.dockerfile',
      'a.mk',
      'a.cmake',
      'a.nix',
      'a.tex',
      'a.diff',
      'a.hbs',
      'a.twig',
      'a.erb',
      'Gemfile',
      'Jenkinsfile',
      'go.mod',
      'CMakeLists.txt',
    ];
    for (const p of probe) names.add(languageOf(p)!);
    for (const name of names) expect(() => require.resolve(`highlight.js/lib/languages/${name}`), name).not.toThrow();
    const hl = await loadHighlighter(names);
    // A grammar that loaded gives scopes: `def` is a keyword in Python.
    expect(hl.lines('python', 'def f(): pass')[0]!.find((t) => t.text === 'def')?.scope).toBe('keyword');
  });
});

describe('readHtml', () => {
  it('reads highlight.js output back into tokens per line, nested scopes and escapes included', () => {
    const html =
      '<span class="hljs-keyword">const</span> a = <span class="hljs-string">`x <span class="hljs-subst">${b}</span> &lt;y&gt; &amp;\n&quot;&#x27;`</span>;';
    expect(readHtml(html)).toEqual([
      [
        { text: 'const', scope: 'keyword' },
        { text: ' a = ', scope: null },
        { text: '`x ', scope: 'string' },
        { text: '${b}', scope: 'subst' },
        { text: ' <y> &', scope: 'string' },
      ],
      [
        { text: '"\'`', scope: 'string' },
        { text: ';', scope: null },
      ],
    ]);
    expect(readHtml('<span class="hljs-title function_">main</span>')).toEqual([[{ text: 'main', scope: 'title.function' }]]);
  });
});
