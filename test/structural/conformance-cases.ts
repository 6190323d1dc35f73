// Rules for the conformance suite: each runs on every source of its languages, through the ast-grep CLI
// and through scion, and the two results must be byte for byte the same. The sources are laid out the
// way the templates are (one space after commas, two-space indentation), so these are cases where the
// CLI keeps the layout; where scion deliberately does better, layout.test.ts says so.
// `body` is the YAML of the rule file document without id and language; `keys` lists the rule-language
// features the case exercises (the suite checks every feature is covered).

export type Family = 'js' | 'python' | 'go' | 'css' | 'html';

export interface RuleCase {
  readonly name: string;
  readonly family: Family;
  readonly body: string;
  readonly keys: readonly string[];
  /** Sources (file names in fixtures/conformance) to leave out, with why. */
  readonly skip?: Readonly<Record<string, string>>;
  /** Only these languages of the family (e.g. a TypeScript-only syntax). */
  readonly only?: readonly string[];
}

export const SOURCES: Readonly<Record<Family, readonly (readonly [file: string, language: string])[]>> = {
  js: [
    ['app.js', 'javascript'],
    ['util.js', 'javascript'],
    ['events.js', 'javascript'],
    ['service.ts', 'typescript'],
    ['button.tsx', 'tsx'],
  ],
  python: [
    ['store.py', 'python'],
    ['tools.py', 'python'],
  ],
  go: [['main.go', 'go']],
  css: [['style.css', 'css']],
  html: [['page.html', 'html']],
};

/** A YAML block written indented in this file: the common indentation and the first line break go. */
function y(strings: TemplateStringsArray): string {
  const text = strings.join('').replace(/^\n/, '');
  const indent = Math.min(
    ...text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => /^ */.exec(l)?.[0].length ?? 0),
  );
  return text
    .split('\n')
    .map((l) => l.slice(indent))
    .join('\n');
}

const js = (name: string, keys: string[], body: string, extra: Partial<RuleCase> = {}): RuleCase => ({ name, family: 'js', body, keys, ...extra });

export const RULES: readonly RuleCase[] = [
  js('console-log', ['pattern', '$$$VAR'], `rule: { pattern: 'console.log($$$ARGS)' }\nfix: 'logger.info($$$ARGS)'`),
  js(
    'constraints',
    ['pattern', 'constraints', 'regex', '$VAR', '$$$VAR'],
    y`
    rule: { pattern: 'console.$M($$$A)' }
    constraints: { M: { regex: '^(warn|error)$' } }
    fix: 'logger.$M($$$A)'`,
  ),
  js('kind-regex', ['kind', 'regex'], `rule: { kind: identifier, regex: '^legacy' }\nfix: modern`),
  js('inside-stop-end', ['inside', 'stopBy', 'pattern'], `rule: { pattern: 'this.$P', inside: { kind: class_body, stopBy: end } }\nfix: 'self.$P'`),
  js('inside-neighbor', ['inside', 'kind'], `rule:\n  pattern: $X\n  kind: identifier\n  inside: { kind: formal_parameters }\nfix: '_$X'`),
  js('inside-field', ['inside', 'field'], `rule:\n  pattern: $N\n  kind: identifier\n  inside: { kind: variable_declarator, field: name }\nfix: 'the_$N'`),
  js(
    'has-direct',
    ['has', 'kind', 'not'],
    y`
    rule:
      pattern: $F($$$A)
      has: { kind: arguments, has: { kind: string } }
      not: { inside: { kind: arguments, stopBy: end } }
    fix: '$F.call(undefined, $$$A)'`,
  ),
  js(
    'has-stop-end',
    ['has', 'stopBy'],
    y`
    rule:
      pattern: $F($$$A)
      kind: call_expression
      has: { kind: template_string, stopBy: end }
    fix: 'tagged($F, $$$A)'`,
  ),
  js('precedes', ['precedes'], `rule: { pattern: 'var $A = $B;', precedes: { pattern: 'var $C = $D;' } }\nfix: 'let $A = $B;'`),
  js('follows', ['follows'], `rule: { pattern: 'var $A = $B;', follows: { pattern: 'var $C = $D;' } }\nfix: 'const $A = $B;'`),
  js(
    'follows-stop-end',
    ['follows', 'stopBy'],
    y`
    rule:
      kind: lexical_declaration
      pattern: const $A = $B;
      follows: { kind: import_statement, stopBy: end }
    fix: 'const $A = ($B);'`,
  ),
  js('all-not', ['all', 'not', 'has'], `rule:\n  all:\n    - pattern: $A == $B\n    - not: { has: { kind: 'null' } }\nfix: '$A === $B'`),
  js(
    'any',
    ['any'],
    y`
    rule:
      any:
        - pattern: console.warn($$$A)
        - pattern: console.error($$$A)
        - pattern: console.info($$$A)
    fix: 'report($$$A)'`,
  ),
  js(
    'not-inside',
    ['not', 'inside'],
    y`
    rule:
      pattern: $X
      kind: identifier
      regex: '^(legacy|other|counter)$'
      not: { inside: { kind: variable_declarator, field: name } }
    fix: 'state.$X'`,
  ),
  js(
    'matches-utils',
    ['matches', 'utils'],
    y`
    utils:
      log-call: { pattern: 'console.log($$$)' }
    rule:
      all:
        - matches: log-call
        - pattern: $F($$$A)
    fix: 'trace($$$A)'`,
  ),
  js(
    'matches-utils-nested',
    ['matches', 'utils', 'inside'],
    y`
    utils:
      in-function: { inside: { kind: function_declaration, stopBy: end } }
      is-return: { kind: return_statement }
    rule:
      pattern: return $E;
      all: [{ matches: in-function }, { matches: is-return }]
    fix: 'return ($E);'`,
  ),
  js('nth-child', ['nthChild', 'inside'], `rule: { kind: number, nthChild: 1, inside: { kind: arguments } }\nfix: '0'`),
  js('nth-child-reverse', ['nthChild'], `rule: { kind: number, nthChild: { position: 1, reverse: true }, inside: { kind: array } }\nfix: '99'`),
  js('nth-child-formula', ['nthChild'], `rule: { kind: number, nthChild: '2n+1', inside: { kind: array } }\nfix: '7'`),
  js(
    'stop-by-rule',
    ['inside', 'stopBy'],
    y`
    rule:
      pattern: $I
      kind: identifier
      inside:
        kind: statement_block
        stopBy: { kind: function_declaration }
    fix: '$I'`,
  ),
  js(
    'transform-replace',
    ['transform', 'replace', 'constraints'],
    y`
    rule: { pattern: '$F($$$A)' }
    constraints: { F: { regex: '^get[A-Z]' } }
    transform:
      N: { replace: { source: $F, replace: '^get', by: 'fetch' } }
    fix: '$N($$$A)'`,
  ),
  js(
    'transform-replace-groups',
    ['transform', 'replace'],
    y`
    rule: { pattern: $X, kind: identifier, regex: '^[a-z]+_[a-z]+$' }
    transform:
      N: { replace: { source: $X, replace: '([a-z]+)_([a-z]+)', by: '\${2}_$1' } }
    fix: $N`,
  ),
  js(
    'transform-substring',
    ['transform', 'substring'],
    y`
    rule: { pattern: $S, kind: string, regex: "^'[a-z]+'$" }
    transform:
      INNER: { substring: { source: $S, startChar: 1, endChar: -1 } }
    fix: '"$INNER"'`,
  ),
  js(
    'transform-substring-string-form',
    ['transform', 'substring'],
    y`
    rule: { pattern: $S, kind: string, regex: "^'" }
    transform:
      MID: substring($S, startChar=2, endChar=-1)
    fix: "'$MID'"`,
  ),
  js(
    'convert-camel',
    ['transform', 'convert'],
    y`
    rule: { pattern: $N, kind: identifier, regex: '_' }
    transform:
      C: { convert: { source: $N, toCase: camelCase } }
    fix: $C`,
  ),
  js(
    'convert-snake',
    ['transform', 'convert'],
    y`
    rule: { pattern: $N, kind: identifier, regex: '^get[A-Z]' }
    transform:
      C: { convert: { source: $N, toCase: snakeCase } }
    fix: $C`,
  ),
  js(
    'convert-kebab-string',
    ['transform', 'convert', 'constraints'],
    y`
    rule: { pattern: '$O.$P($$$A)' }
    constraints: { P: { regex: '^[a-z]+[A-Z]' } }
    transform:
      C: convert($P, toCase=kebabCase)
    fix: "$O['$C']($$$A)"`,
  ),
  js(
    'convert-pascal',
    ['transform', 'convert'],
    y`
    rule: { pattern: 'function $F($$$P) { $$$B }' }
    transform:
      C: { convert: { source: $F, toCase: pascalCase } }
    fix: "function $C($$$P) {\\n  $$$B\\n}"`,
  ),
  js(
    'convert-upper-separated',
    ['transform', 'convert'],
    y`
    rule: { pattern: $N, kind: identifier, regex: '^legacy' }
    transform:
      C: { convert: { source: $N, toCase: upperCase, separatedBy: [underscore] } }
    fix: $C`,
  ),
  js(
    'convert-capitalize-lower',
    ['transform', 'convert'],
    y`
    rule: { pattern: 'console.$M($$$A)' }
    transform:
      UP: { convert: { source: $M, toCase: capitalize } }
      LOW: { convert: { source: $UP, toCase: lowerCase } }
    fix: 'console.$LOW$UP($$$A)'`,
  ),
  js(
    'reorder',
    ['pattern', '$VAR', '$$$VAR'],
    y`
    rule: { pattern: '$F($FIRST, $$$REST)' }
    constraints: { F: { regex: '^(compute|setTimeout|join)$' } }
    fix: '$F($$$REST, $FIRST)'`,
  ),
  js('empty-list', ['pattern', '$$$VAR'], `rule: { pattern: '$O.$M()' }\nfix: '$O.$M(undefined)'`),
  js('if-block', ['pattern', '$$$VAR'], `rule: { pattern: 'if ($C) { $$$B }' }\nfix: "if (!($C)) {\\n  $$$B\\n}"`),
  js('while-block', ['pattern'], `rule: { pattern: 'while ($C) { $$$B }' }\nfix: "for (; $C; ) {\\n  $$$B\\n}"`),
  js('for-of', ['pattern', '$$$VAR'], `rule: { pattern: 'for (const $X of $Y) { $$$B }' }\nfix: "for (const $X of [...$Y]) {\\n  $$$B\\n}"`),
  js('class-extends', ['pattern', '$$$VAR'], `rule: { pattern: 'class $C { $$$B }' }\nfix: "class $C extends Base {\\n  $$$B\\n}"`),
  js('arrow', ['pattern'], `rule: { pattern: '($X) => $E' }\nfix: 'function ($X) { return $E; }'`),
  js('length', ['pattern'], `rule: { pattern: '$A.length' }\nfix: 'size($A)'`),
  js('await', ['pattern'], `rule: { pattern: 'await $E' }\nfix: '(await $E)'`),
  js('json-parse', ['pattern'], `rule: { pattern: 'JSON.parse($X)' }\nfix: 'parseJson($X)'`),
  js('string-literal', ['kind', 'regex'], `rule: { kind: string, regex: "^'utf8'$" }\nfix: "'utf-8'"`),
  js('string-concat', ['pattern', 'constraints', 'kind'], `rule: { pattern: '$A + $B' }\nconstraints: { B: { kind: string } }\nfix: '[$A, $B].join("")'`),
  js('export-default', ['pattern'], `rule: { pattern: 'export default $X;' }\nfix: 'export { $X as default };'`),
  js('module-exports', ['pattern'], `rule: { pattern: 'module.exports.$N = $V;' }\nfix: 'exports.$N = $V;'`),
  js('require', ['pattern'], `rule: { pattern: 'require($M)' }\nfix: 'import($M)'`),
  js('destructured-require', ['pattern', '$$$VAR'], `rule: { pattern: 'const { $$$P } = require($M);' }\nfix: 'import { $$$P } from $M;'`),
  js('require-import', ['pattern'], `rule: { pattern: 'const $A = require($M);' }\nfix: 'import $A from $M;'`),
  js('return', ['pattern'], `rule: { pattern: 'return $E;' }\nfix: 'return ($E);'`),
  js('compound-assign', ['pattern'], `rule: { pattern: '$X += $Y;' }\nfix: '$X = $X + $Y;'`),
  js('method-call', ['pattern'], `rule: { pattern: 'this.cache.$M($$$A)' }\nfix: 'this.store.$M($$$A)'`),
  js('ts-as', ['pattern'], `rule: { pattern: '$E as $T' }\nfix: '($E satisfies $T)'`, { only: ['typescript'] }),
  js('ts-new-map', ['pattern'], `rule: { pattern: 'new Map()' }\nfix: 'new Map<number, User>()'`, { only: ['typescript'] }),
  js(
    'ts-async-method',
    ['pattern', 'selector', '$$$VAR'],
    y`
    rule:
      pattern: { context: 'class A { async $M($$$P): $R { $$$B } }', selector: method_definition }
    fix: "public async $M($$$P): $R {\\n  $$$B\\n}"`,
    { only: ['typescript'] },
  ),
  js(
    'jsx-attribute',
    ['kind', 'regex'],
    y`
    rule: { kind: property_identifier, regex: '^className$', inside: { kind: jsx_attribute } }
    fix: 'class'`,
    { only: ['tsx'] },
  ),
  js('jsx-element', ['pattern'], `rule: { pattern: '<li key={$K}>{$C}</li>' }\nfix: '<Item key={$K} value={$C} />'`, { only: ['tsx'] }),
  js('loose-equality', ['any', 'pattern'], `rule:\n  any:\n    - pattern: $A != $B\n    - pattern: $A != true\nfix: '$A !== $B'`),
  js('dollar-dollar', ['$VAR'], `rule: { pattern: 'setTimeout($F, $MS)' }\nfix: 'setTimeout($$F, $MS * 2)'`),
  js(
    'fix-expand-end',
    ['fix', 'expandEnd'],
    y`
    rule: { kind: number, regex: '^1$', inside: { kind: arguments } }
    fix: { template: '', expandEnd: { regex: '^,$' } }`,
  ),
  js(
    'fix-expand-start',
    ['fix', 'expandStart'],
    y`
    rule: { kind: number, regex: '^(2|100)$', inside: { kind: arguments } }
    fix: { template: '', expandStart: { regex: '^,$' } }`,
  ),
  js('literal-dollar', ['pattern'], `rule: { pattern: 'console.debug($$$A)' }\nfix: 'debug$($$$A)'`),

  { name: 'py-print', family: 'python', keys: ['pattern', '$$$VAR'], body: `rule: { pattern: 'print($$$A)' }\nfix: 'logging.info($$$A)'` },
  { name: 'py-get-item', family: 'python', keys: ['pattern'], body: `rule: { pattern: '$A.get_item($I)' }\nfix: '$A[$I]'` },
  {
    name: 'py-camel',
    family: 'python',
    keys: ['transform', 'convert', 'kind', 'regex'],
    body: y`
    rule: { pattern: $N, kind: identifier, regex: '^get_' }
    transform:
      C: { convert: { source: $N, toCase: camelCase } }
    fix: $C`,
  },
  { name: 'py-def', family: 'python', keys: ['pattern', '$$$VAR'], body: `rule: { pattern: 'def $F($$$P): $$$B' }\nfix: "def $F($$$P) -> None:\\n    $$$B"` },
  { name: 'py-self-attr', family: 'python', keys: ['pattern'], body: `rule: { pattern: 'self.$A = $B' }\nfix: 'self.$A: Any = $B'` },
  {
    name: 'py-inside-class',
    family: 'python',
    keys: ['inside', 'stopBy'],
    body: y`
    rule: { pattern: 'print($$$A)', inside: { kind: class_definition, stopBy: end } }
    fix: 'log($$$A)'`,
  },
  { name: 'py-is-none', family: 'python', keys: ['pattern'], body: `rule: { pattern: '$X is None' }\nfix: '$X == None'` },
  { name: 'py-has', family: 'python', keys: ['has', 'kind'], body: `rule: { kind: call, pattern: $C, has: { kind: keyword_argument } }\nfix: 'wrap($C)'` },

  { name: 'go-println', family: 'go', keys: ['pattern', '$$$VAR'], body: `rule: { pattern: 'fmt.Println($$$A)' }\nfix: 'log.Println($$$A)'` },
  { name: 'go-printf', family: 'go', keys: ['pattern', '$VAR'], body: `rule: { pattern: 'fmt.Printf($F, $$$A)' }\nfix: 'fmt.Fprintf(os.Stderr, $F, $$$A)'` },
  { name: 'go-concat', family: 'go', keys: ['pattern'], body: `rule: { pattern: '$A + " " + $B' }\nfix: 'strings.Join([]string{$A, $B}, " ")'` },
  {
    name: 'go-pascal',
    family: 'go',
    keys: ['transform', 'convert'],
    body: y`
    rule: { pattern: $N, kind: identifier, regex: '^getUserName$' }
    transform:
      C: { convert: { source: $N, toCase: pascalCase } }
    fix: $C`,
  },

  { name: 'css-value', family: 'css', keys: ['kind', 'regex'], body: `rule: { kind: plain_value, regex: '^red$' }\nfix: crimson` },
  {
    name: 'css-property',
    family: 'css',
    keys: ['kind', 'regex', 'inside'],
    body: y`
    rule: { kind: property_name, regex: '^color$', inside: { kind: declaration } }
    fix: fill`,
  },
  { name: 'css-color', family: 'css', keys: ['kind'], body: `rule: { kind: color_value }\nfix: '#ffffff'` },
  { name: 'html-attribute', family: 'html', keys: ['kind', 'regex'], body: `rule: { kind: attribute_value, regex: '^app$' }\nfix: application` },
  { name: 'html-tag', family: 'html', keys: ['kind', 'regex'], body: `rule: { kind: tag_name, regex: '^span$' }\nfix: em` },
];

/** Rule files with several documents: each document is a rule, applied in order. */
export const MULTI_DOCUMENT: readonly { readonly name: string; readonly family: Family; readonly docs: readonly string[] }[] = [
  {
    name: 'two-rules',
    family: 'js',
    docs: [`rule: { pattern: 'console.log($$$ARGS)' }\nfix: 'logger.info($$$ARGS)'`, `rule: { pattern: 'var $A = $B;' }\nfix: 'let $A = $B;'`],
  },
  {
    name: 'three-rules',
    family: 'js',
    docs: [
      `rule: { pattern: 'JSON.parse($X)' }\nfix: 'parseJson($X)'`,
      `rule: { pattern: 'return $E;', inside: { kind: method_definition, stopBy: end } }\nfix: 'return ($E);'`,
      `rule: { kind: string, regex: "^'utf8'$" }\nfix: "'utf-8'"`,
    ],
  },
  {
    name: 'python-two-rules',
    family: 'python',
    docs: [`rule: { pattern: 'print($$$A)' }\nfix: 'logging.info($$$A)'`, `rule: { pattern: '$X is None' }\nfix: '$X == None'`],
  },
];
