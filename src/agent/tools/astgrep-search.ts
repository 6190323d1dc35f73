// astgrep_search: find code by its shape (an ast-grep pattern in one language) before editing it by
// text. Like glob and grep it sees only the step's own files; each file is searched in a structural
// worker process under one deadline for the whole call, so a huge file or a pathological pattern
// ends in a refusal the model can act on, never in a stuck job.
import { failure } from '../../errors.js';
import { BUILTIN_LANGUAGES, extensionOf, searchLanguage, StructuralPool, type SearchHit } from '../../structural/index.js';
import { refusal, reply, stopped, type ToolContext, type ToolReply } from './context.js';
import { MAX_LIST, type ToolInput } from './schemas.js';
import { compileGlob, badGlob } from './search.js';

const MAX_MATCH_CHARS = 300;
/** The time one call may take over all the files it searches. */
const SEARCH_LIMIT_MS = 20_000;
const PARALLEL = 16;

export async function astgrepSearch(ctx: ToolContext, input: ToolInput<'astgrep_search'>, limitMs = SEARCH_LIMIT_MS): Promise<ToolReply> {
  const language = searchLanguage(input.language);
  if (language === null) {
    const f = failure('unsupported', `astgrep_search does not read ${input.language}.`);
    ctx.refused('astgrep_search', null, f);
    return refusal(f, `Name one of ${Object.keys(BUILTIN_LANGUAGES).join(', ')}; for other files use grep.`);
  }
  const inScope = input.glob === undefined ? () => true : compileGlob(ctx, input.glob);
  if (typeof inScope === 'string') return badGlob(ctx, 'astgrep_search', inScope);
  const extensions = new Set(BUILTIN_LANGUAGES[language]?.extensions ?? []);
  const paths = ctx.files
    .paths()
    .filter((p) => extensions.has(extensionOf(p)) && inScope(p))
    .sort();
  if (paths.length === 0) {
    const exts = [...extensions].map((e) => `.${e}`).join(' ');
    if (input.glob === undefined) return reply(`No file of this job is read as ${language} (${exts}).`);
    return reply(`No ${language} file of this job matches ${input.glob} (${exts}).`);
  }
  const pool = new StructuralPool(2);
  const deadline = Date.now() + limitMs;
  const out: string[] = [];
  let total = 0;
  try {
    for (let i = 0; i < paths.length; i += PARALLEL) {
      const batch = paths.slice(i, i + PARALLEL);
      const answers = await Promise.all(
        batch.map(async (path) => {
          const bytes = await ctx.files.read(path);
          if (bytes === null) return null;
          const limits = { timeoutMs: Math.max(0, deadline - Date.now()), ...(ctx.signal ? { signal: ctx.signal } : {}) };
          return pool.run({ kind: 'search', pattern: input.pattern, language }, { path, bytes }, limits);
        }),
      );
      for (const [k, answer] of answers.entries()) {
        if (answer === null) continue;
        const path = batch[k] as string;
        if (!answer.ok) {
          const f = answer.error;
          if (f.kind === 'interrupted') return stopped();
          // A file that is not text in its encoding holds nothing to find.
          if (f.kind === 'binary' || f.kind === 'encoding') continue;
          const timedOut = f.kind === 'timeout';
          const refused = timedOut ? failure('timeout', `the search ran past ${limitMs / 1000} s (stopped in ${path}).`) : f;
          ctx.refused('astgrep_search', null, refused);
          return refusal(
            refused,
            timedOut
              ? 'Narrow the search with glob, or use a more specific pattern.'
              : 'Write the pattern as code of that language, with $NAME for one node and $$$NAME for several (e.g. console.log($$$ARGS)).',
          );
        }
        for (const hit of answer.value) {
          total++;
          if (out.length < MAX_LIST) out.push(line(path, hit));
        }
      }
    }
  } finally {
    pool.close();
  }
  if (total === 0) return reply(`No ${language} code matches ${input.pattern}${input.glob === undefined ? '' : ` in files matching ${input.glob}`}.`);
  return reply(total > MAX_LIST ? `${out.join('\n')}\n[${total - MAX_LIST} more matches not shown: narrow the pattern or the glob.]` : out.join('\n'));
}

function line(path: string, hit: SearchHit): string {
  const text = hit.text.length > MAX_MATCH_CHARS ? `${hit.text.slice(0, MAX_MATCH_CHARS)}…` : hit.text;
  return `${path}:${hit.line}:${hit.column}: ${text}`;
}
