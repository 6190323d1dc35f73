// glob and grep: exploration over the step's own files only (files.paths()), never the whole disk.
import { decodeText, RegexRunner } from '../../core/index.js';
import { failure, isScionError } from '../../errors.js';
import { globTest } from '../../recipe/globs.js';
import { refusal, reply, stopped, type ToolContext, type ToolReply } from './context.js';
import { MAX_LIST, type ToolInput } from './schemas.js';

const MAX_MATCH_CHARS = 300;
/** The time one grep call may take over all the files it searches. */
const GREP_LIMIT_MS = 10_000;

export function glob(ctx: ToolContext, input: ToolInput<'glob'>): ToolReply {
  const match = compileGlob(ctx, input.pattern);
  if (typeof match === 'string') return badGlob(ctx, 'glob', match);
  const hits = ctx.files.paths().filter(match).sort();
  if (hits.length === 0) return reply(`No file of this job matches ${input.pattern}.`);
  const shown = hits.slice(0, MAX_LIST).join('\n');
  return reply(hits.length > MAX_LIST ? `${shown}\n[${hits.length - MAX_LIST} more not shown: use a narrower pattern.]` : shown);
}

export async function grep(ctx: ToolContext, input: ToolInput<'grep'>, limitMs = GREP_LIMIT_MS): Promise<ToolReply> {
  let re: RegExp;
  try {
    re = new RegExp(input.pattern);
  } catch (e) {
    const f = failure('unsupported', `pattern is not a valid JavaScript regular expression: ${(e as Error).message}`);
    ctx.refused('grep', null, f);
    return refusal(f, 'Escape special characters such as ( [ { . * + ? with a backslash, or search for a simpler pattern.');
  }
  const inScope = input.glob === undefined ? () => true : compileGlob(ctx, input.glob);
  if (typeof inScope === 'string') return badGlob(ctx, 'grep', inScope);
  const out: string[] = [];
  let total = 0;
  // The model's pattern runs in a worker under a deadline: (a+)+$ must not hang the job.
  const runner = new RegexRunner();
  const deadline = Date.now() + limitMs;
  try {
    for (const path of [...ctx.files.paths()].filter(inScope).sort()) {
      const bytes = await ctx.files.read(path);
      if (bytes === null) continue;
      const d = decodeText(bytes);
      if (!d.ok) continue;
      if (ctx.signal?.aborted) return stopped();
      const hit = await runner.run('lines', input.pattern, re.flags, d.value.text, deadline - Date.now(), ctx.signal);
      if (!hit.ok && hit.error.reason === 'aborted') return stopped();
      if (!hit.ok) {
        const f =
          hit.error.reason === 'timeout'
            ? failure('timeout', `the pattern ran past ${limitMs / 1000} s (stopped in ${path}); it backtracks too much.`)
            : failure('unsupported', `the pattern could not run on ${path}: ${hit.error.message}`);
        ctx.refused('grep', null, f);
        return refusal(f, 'Use a simpler pattern without nested quantifiers such as (a+)+, or narrow the search with glob.');
      }
      const lines = d.value.text.split('\n');
      for (const i of hit.value) {
        const line = lines[i] as string;
        total++;
        if (out.length < MAX_LIST) out.push(`${path}:${i + 1}: ${line.length > MAX_MATCH_CHARS ? `${line.slice(0, MAX_MATCH_CHARS)}…` : line}`);
      }
    }
  } finally {
    runner.close();
  }
  if (total === 0) return reply(`No line matches ${input.pattern}${input.glob === undefined ? '' : ` in files matching ${input.glob}`}.`);
  return reply(total > MAX_LIST ? `${out.join('\n')}\n[${total - MAX_LIST} more matches not shown: narrow the pattern or the glob.]` : out.join('\n'));
}

/**
 * Globs are repository-relative; an absolute one inside the worktree is made relative first. They go
 * through the one glob matcher, bounded by construction whatever pattern the model picks; one it
 * refuses comes back as the sentence saying why.
 */
export function compileGlob(ctx: ToolContext, pattern: string): ((path: string) => boolean) | string {
  const root = ctx.files.root;
  let p = pattern.trim().replace(/^(\.\/)+/, '');
  if (root !== null && p.startsWith(`${root.replace(/\/$/, '')}/`)) p = p.slice(root.replace(/\/$/, '').length + 1);
  try {
    return globTest([p], { dot: true });
  } catch (e) {
    if (isScionError(e, 'bad-glob')) return e.message;
    throw e;
  }
}

export function badGlob(ctx: ToolContext, tool: 'glob' | 'grep' | 'astgrep_search', why: string): ToolReply {
  const f = failure('unsupported', why);
  ctx.refused(tool, null, f);
  return refusal(f, 'Use a plain glob: *, **, ?, [...] and {a,b}.');
}
