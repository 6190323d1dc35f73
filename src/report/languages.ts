// Which highlight.js grammar a changed file is read with, guessed from its path (and, for a script
// without an extension, from its `#!` line). One table for the terminal and the HTML report, so a
// file is coloured the same way in both. Every name here is a grammar file highlight.js ships
// (highlight.js/lib/languages/<name>.js): the terminal loads exactly those it needs.

const BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  webmanifest: 'json',
  py: 'python',
  pyi: 'python',
  pyw: 'python',
  rb: 'ruby',
  rake: 'ruby',
  gemspec: 'ruby',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  scala: 'scala',
  groovy: 'groovy',
  gradle: 'gradle',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  m: 'objectivec',
  mm: 'objectivec',
  cs: 'csharp',
  fs: 'fsharp',
  fsx: 'fsharp',
  vb: 'vbnet',
  swift: 'swift',
  dart: 'dart',
  php: 'php',
  pl: 'perl',
  pm: 'perl',
  lua: 'lua',
  r: 'r',
  jl: 'julia',
  ex: 'elixir',
  exs: 'elixir',
  erl: 'erlang',
  hs: 'haskell',
  elm: 'elm',
  clj: 'clojure',
  cljs: 'clojure',
  ml: 'ocaml',
  mli: 'ocaml',
  nim: 'nim',
  zig: 'rust',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  ksh: 'bash',
  fish: 'bash',
  ps1: 'powershell',
  psm1: 'powershell',
  bat: 'dos',
  cmd: 'dos',
  css: 'css',
  scss: 'scss',
  sass: 'scss',
  less: 'less',
  styl: 'stylus',
  html: 'xml',
  htm: 'xml',
  xhtml: 'xml',
  xml: 'xml',
  svg: 'xml',
  vue: 'xml',
  svelte: 'xml',
  xsd: 'xml',
  xsl: 'xml',
  plist: 'xml',
  csproj: 'xml',
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'markdown',
  rst: 'plaintext',
  txt: 'plaintext',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'ini',
  ini: 'ini',
  cfg: 'ini',
  conf: 'ini',
  properties: 'properties',
  env: 'bash',
  sql: 'sql',
  graphql: 'graphql',
  gql: 'graphql',
  proto: 'protobuf',
  tf: 'ini',
  hcl: 'ini',
  dockerfile: 'dockerfile',
  mk: 'makefile',
  cmake: 'cmake',
  nix: 'nix',
  tex: 'latex',
  diff: 'diff',
  patch: 'diff',
  hbs: 'handlebars',
  handlebars: 'handlebars',
  twig: 'twig',
  erb: 'erb',
};

/** Whole file names (lower case) that say their language without an extension. */
const BY_NAME: Readonly<Record<string, string>> = {
  dockerfile: 'dockerfile',
  containerfile: 'dockerfile',
  makefile: 'makefile',
  gnumakefile: 'makefile',
  'cmakelists.txt': 'cmake',
  gemfile: 'ruby',
  rakefile: 'ruby',
  podfile: 'ruby',
  vagrantfile: 'ruby',
  brewfile: 'ruby',
  jenkinsfile: 'groovy',
  '.bashrc': 'bash',
  '.zshrc': 'bash',
  '.profile': 'bash',
  '.bash_profile': 'bash',
  '.gitconfig': 'ini',
  '.editorconfig': 'ini',
  '.npmrc': 'ini',
  'go.mod': 'go',
  'go.sum': 'plaintext',
};

/** Interpreters named on a `#!` line. */
const BY_INTERPRETER: Readonly<Record<string, string>> = {
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  dash: 'bash',
  ksh: 'bash',
  node: 'javascript',
  deno: 'typescript',
  bun: 'javascript',
  tsx: 'typescript',
  'ts-node': 'typescript',
  python: 'python',
  python3: 'python',
  python2: 'python',
  ruby: 'ruby',
  perl: 'perl',
  php: 'php',
  lua: 'lua',
  pwsh: 'powershell',
  Rscript: 'r',
};

/**
 * The grammar for `path`, or undefined for a file read as plain text. `firstLine` (the first line of
 * the file or of the hunk, when known) names the interpreter of a script without an extension.
 */
export function languageOf(path: string, firstLine?: string): string | undefined {
  const name = (path.split('/').pop() ?? path).toLowerCase();
  const byName = BY_NAME[name];
  if (byName !== undefined) return byName;
  if (name.startsWith('dockerfile.') || name.endsWith('.dockerfile')) return 'dockerfile';
  const dot = name.lastIndexOf('.');
  if (dot > 0 || (dot === 0 && BY_EXTENSION[name.slice(1)] !== undefined)) {
    const byExt = BY_EXTENSION[name.slice(dot + 1)];
    if (byExt !== undefined) return byExt;
  }
  if (firstLine?.startsWith('#!')) {
    // `#!/usr/bin/env -S node --flag` and `#!/bin/bash -e`: the program is the last path part of the
    // first word, or the word after `env` (past its own options).
    const words = firstLine.slice(2).trim().split(/\s+/);
    let prog = words[0]?.split('/').pop() ?? '';
    if (prog === 'env') prog = words.slice(1).find((w) => !w.startsWith('-') && !w.includes('=')) ?? '';
    const found = BY_INTERPRETER[prog.replace(/[\d.]+$/, '')] ?? BY_INTERPRETER[prog];
    if (found !== undefined) return found;
  }
  return undefined;
}
