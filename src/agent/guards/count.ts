// Counting the test cases of a test file, structurally, with the astgrep engine (a rule without a fix
// only counts its matches):
//   JavaScript/TypeScript  calls of it / test / describe (xit, fdescribe too: skipping is the skips
//                          guard's to judge), with their member chains (it.each(t)(…) once)
//   Python                 function definitions named test*, methods included
//   Go                     function declarations named Test*
//   Java/Kotlin            @Test, @ParameterizedTest, @RepeatedTest, @TestFactory, @TestTemplate
//
// JavaScript and TypeScript are built into @ast-grep/napi and counted in this process. Python, Go and
// Java need their @ast-grep/lang-* package, and napi registers such languages once per process (the
// recipe's own astgrep steps may need that one registration), so they are counted in a child process
// of the structural pool, resolved from scion's own install (a project that depends on scion can add
// the packages beside it). When a package is missing, or its child fails, the count falls back to a
// line-anchored textual count (documented in the README) and says so once in the log.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAstgrep, rewriteFile, StructuralPool, type AstgrepProgram } from '../../structural/index.js';

type Language = 'javascript' | 'typescript' | 'tsx' | 'python' | 'go' | 'java';

const BUILTIN: ReadonlySet<Language> = new Set(['javascript', 'typescript', 'tsx']);

const LANGUAGE_BY_EXTENSION: Readonly<Record<string, Language>> = {
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  py: 'python',
  go: 'go',
  java: 'java',
};

const JS_RULE = { kind: 'call_expression', has: { field: 'function', regex: '^[xf]?(it|test|describe)(\\.[A-Za-z]+)*$' } };

const RULES: Readonly<Record<Language, object>> = {
  javascript: JS_RULE,
  typescript: JS_RULE,
  tsx: JS_RULE,
  python: { kind: 'function_definition', has: { field: 'name', regex: '^test' } },
  go: { kind: 'function_declaration', has: { field: 'name', regex: '^Test' } },
  java: {
    any: [{ kind: 'marker_annotation' }, { kind: 'annotation' }],
    has: { field: 'name', regex: '^(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)$' },
  },
};

/** The textual count used when a language package is missing: definitions start their line in these languages. */
const TEXTUAL: Readonly<Partial<Record<Language, RegExp>>> = {
  python: /^[ \t]*(?:async[ \t]+)?def[ \t]+test\w*[ \t]*\(/gm,
  go: /^func[ \t]+Test\w*[ \t]*\(/gm,
  java: /@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b(?![.\w])/g,
};

/** What a count says: how many, and how it was counted. */
export interface TestCount {
  readonly cases: number;
  readonly how: 'structural' | 'textual';
}

/** Where scion's own packages resolve from (the language packages are looked up from here upwards). */
const OWN_DIR = dirname(fileURLToPath(import.meta.url));

export class TestCounter {
  private readonly programs = new Map<Language, Promise<AstgrepProgram | null>>();
  private pool: StructuralPool | null = null;
  private readonly textual = new Set<Language>();

  constructor(
    private readonly log: (message: string) => void,
    private readonly packsFrom: string = OWN_DIR,
  ) {}

  /** The language whose test cases a path holds, or null when scion does not count that language. */
  static languageOf(path: string): Language | null {
    const base = path.slice(path.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    return dot <= 0 ? null : (LANGUAGE_BY_EXTENSION[base.slice(dot + 1).toLowerCase()] ?? null);
  }

  /** The test cases of a file (its bytes, and their LF text) in `path`'s language; null when that language is not counted. */
  async count(path: string, bytes: Uint8Array, text: string): Promise<TestCount | null> {
    const language = TestCounter.languageOf(path);
    if (language === null) return null;
    if (BUILTIN.has(language)) {
      const program = await this.program(language);
      if (program !== null) {
        const out = rewriteFile(program, { path, bytes });
        if (out.ok) return { cases: out.value.matches, how: 'structural' };
      }
      return null;
    }
    if (!this.textual.has(language) && this.hasPack(language)) {
      this.pool ??= new StructuralPool(1);
      try {
        const program = { kind: 'astgrep', source: { kind: 'inline', step: { rule: RULES[language], language } }, fromDir: this.packsFrom } as const;
        const out = await this.pool.run(program, { path, bytes });
        if (out.ok) return { cases: out.value.matches, how: 'structural' };
        this.fallBack(language, out.error.message);
      } catch (e) {
        this.fallBack(language, e instanceof Error ? e.message : String(e));
      }
    } else if (!this.textual.has(language)) {
      this.fallBack(language, `@ast-grep/lang-${language} is not installed beside scion`);
    }
    return { cases: text.match(TEXTUAL[language] as RegExp)?.length ?? 0, how: 'textual' };
  }

  /** Stops the child process, if one was started. */
  close(): void {
    this.pool?.close();
    this.pool = null;
  }

  private program(language: Language): Promise<AstgrepProgram | null> {
    let p = this.programs.get(language);
    if (!p) {
      // Built-in languages need no package, so loading them never registers anything with napi.
      p = loadAstgrep({ kind: 'inline', step: { rule: RULES[language], language } }, { fromDir: this.packsFrom }).then((l) => (l.ok ? l.value : null));
      this.programs.set(language, p);
    }
    return p;
  }

  private hasPack(language: Language): boolean {
    try {
      createRequire(`${this.packsFrom}/noop.js`).resolve(`@ast-grep/lang-${language}`);
      return true;
    } catch {
      return false;
    }
  }

  private fallBack(language: Language, why: string): void {
    this.textual.add(language);
    this.log(`guards: ${language} test cases are counted line by line (${why}); install @ast-grep/lang-${language} beside scion to count them structurally`);
  }
}
