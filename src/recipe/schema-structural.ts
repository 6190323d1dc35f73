// The structural step kinds: `astgrep` (an ast-grep rule, inline or from a rule file) and `jscodeshift`
// (an existing jscodeshift transform module). The schema checks the step's own shape; the rule's
// insides (its keys, napi's verdict, the language packages) and the transform module are checked when
// the recipe is loaded (structural.ts), where each problem gets its file:line:col too.
import * as z from 'zod';
import type { AstgrepProgram, AstgrepSource, LoadedTransform, ParserName } from '../structural/index.js';
import { selectionSchema } from './schema-parts.js';

const narrowing = selectionSchema.optional().describe('Optional narrowing of the recipe/job selection: a file must match both. Default: the whole selection.');

/** A mapping whose keys the structural loader checks (ast-grep's rule language is open-ended). */
const mapping = (description: string) => z.record(z.string(), z.unknown()).optional().describe(description);

/** The inline rule's fields; a rule file carries the same ones itself. */
const RULE_FIELDS = ['rule', 'fix', 'constraints', 'utils', 'transform', 'language'] as const;

/** What loading the recipe adds to an `astgrep` step: the program, and what a worker process needs to build it again. */
export interface AstgrepLoaded {
  readonly source: AstgrepSource;
  /** Where language packages (and the rule file) were resolved from: the recipe file's folder. */
  readonly fromDir: string;
  readonly program: AstgrepProgram;
}

/** What loading the recipe adds to a `jscodeshift` step. */
export interface JscodeshiftLoaded {
  readonly fromDir: string;
  readonly transform: LoadedTransform;
}

const astgrepFields = z.strictObject({
  rule: mapping(
    'The ast-grep rule object to match: pattern, kind, regex, inside, has, precedes, follows, all, any, not, matches, nthChild, stopBy, field. ' +
      'Required unless ruleFile is given.',
  ),
  fix: z
    .union([z.string(), z.record(z.string(), z.unknown())], { error: 'expected a template string or { template, expandStart, expandEnd }' })
    .optional()
    .describe(
      "Replacement template using the rule's $VAR and $$$VAR; whitespace the template does not change keeps the source's. " +
        'Default: none (the step only counts matches).',
    ),
  constraints: mapping('Rules the named metavariables must also match, as in ast-grep rule files. Default: none.'),
  utils: mapping('Named utility rules that `matches` can refer to, as in ast-grep rule files. Default: none.'),
  transform: mapping('Metavariable transformations (replace, substring, convert) usable in fix, as in ast-grep rule files. Default: none.'),
  language: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Language of the files to read: typescript, tsx, javascript, html, css, or any @ast-grep/lang-<name> package (python, go, …). ' +
        "Default: each file's language from its extension.",
    ),
  ruleFile: z
    .string()
    .min(1)
    .optional()
    .describe(
      'An ast-grep rule file (YAML; several documents are several rules, applied in order), relative to the recipe file; ' +
        'instead of rule, fix and the rest.',
    ),
  files: narrowing,
});

type AstgrepFields = z.output<typeof astgrepFields>;
export type AstgrepPayload = AstgrepFields & { readonly loaded?: AstgrepLoaded };

export const astgrepStep = astgrepFields
  .superRefine((step, ctx) => {
    const inline = RULE_FIELDS.filter((k) => step[k] !== undefined);
    if (step.ruleFile !== undefined) {
      for (const k of inline) {
        ctx.addIssue({ code: 'custom', path: [k], message: `a step with ruleFile takes its ${k} from the rule file; remove one of the two` });
      }
    } else if (step.rule === undefined) {
      ctx.addIssue({ code: 'custom', path: ['rule'], message: 'Required: give the rule to match (rule: { pattern: ... }) or a ruleFile' });
    }
  })
  .transform((step): AstgrepPayload => step)
  .describe('ast-grep: every match of the rule is rewritten by its fix (or counted), keeping every byte the fix does not change.');

export const PARSER_NAMES = ['babel', 'babylon', 'flow', 'ts', 'tsx'] as const satisfies readonly ParserName[];

const jscodeshiftFields = z.strictObject({
  transform: z.string().min(1).describe('The jscodeshift transform module: a path relative to the recipe file (./transforms/x.js), or a package specifier.'),
  parser: z
    .enum(PARSER_NAMES)
    .optional()
    .describe(
      'Parser the transform reads files with; it also picks the files offered (js/jsx/mjs/cjs, or ts/mts/cts, plus tsx for tsx). ' +
        "Default: the module's `parser` export, else babel.",
    ),
  options: mapping("The transform's third argument (what `jscodeshift --foo=bar` would pass). Default: {}."),
  files: narrowing,
});

export type JscodeshiftPayload = z.output<typeof jscodeshiftFields> & { readonly loaded?: JscodeshiftLoaded };

export const jscodeshiftStep = jscodeshiftFields
  .transform((step): JscodeshiftPayload => step)
  .describe('jscodeshift: an existing transform module, called on each selected file its parser reads, as the jscodeshift CLI calls it.');
