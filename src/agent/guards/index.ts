// The guards on the model's edits: one check of a file's bytes before and after a change, made in the
// agent's one edit path (edit_file, write_file, notebook_edit, and the replay of a cached answer) for
// the agent step and the verify fix rounds alike, before anything is written. A refusal is a Failure
// of kind `guard` that says what the edit would have done and what to do instead; the tools send it
// back to the model as their error, so a refused edit changes nothing and teaches.
import { decodeText } from '../../core/index.js';
import { failure, type Failure } from '../../errors.js';
import { plural } from '../../util/plural.js';
import { TestCounter } from './count.js';
import { familyOf, fileKinds, PACKAGE_JSON_CHECK_KEYS, type Family, type FileKinds } from './files.js';
import { addedMarker, SKIP_MARKERS, SUPPRESSION_MARKERS } from './markers.js';
import { DEFAULT_GUARDS, GUARD_PURPOSE, type GuardName, type GuardSettings } from './settings.js';

export { DEFAULT_GUARDS, GUARD_NAMES, type GuardName, type GuardSettings } from './settings.js';
export { configFilesOf } from './files.js';

/** One change a tool is about to write: null bytes where the file does not exist (before) or would be removed (after). */
export interface GuardedChange {
  readonly path: string;
  readonly before: Uint8Array | null;
  readonly after: Uint8Array | null;
}

export class Guards {
  private readonly settings: GuardSettings;
  private readonly kinds: FileKinds;
  private readonly counter: TestCounter;

  constructor(settings: GuardSettings | undefined, log: (message: string) => void) {
    this.settings = settings ?? DEFAULT_GUARDS;
    this.kinds = fileKinds(this.settings.tests, this.settings.configFiles);
    this.counter = new TestCounter(log);
  }

  /** The refusal of a change, or null when every guard lets it through. */
  async vet(change: GuardedChange): Promise<Failure | null> {
    const s = this.settings;
    const { path } = change;
    const before = textOf(change.before);
    const after = textOf(change.after);
    if (s.config && this.kinds.isConfig(path) && !sameBytes(change.before, change.after)) return configRefusal(path, 'it configures what the checks report');
    if (s.config && before !== null && after !== null) {
      const section = changedCheckSection(path, before, after);
      if (section !== null) return configRefusal(path, section);
    }
    const isTest = this.kinds.isTest(path);
    if (s.testFiles && isTest && change.before !== null && before !== null && !isBlank(before, familyOf(path))) {
      if (change.after === null) {
        return refusal('testFiles', path, `This edit would delete ${path}, a test file`, 'Deleting a test does not fix the code it tests');
      }
      if (after !== null && isBlank(after, familyOf(path))) {
        const what = `This edit would empty ${path}, a test file (nothing but whitespace and comments would be left)`;
        return refusal('testFiles', path, what, 'Emptying or moving a test file away does not fix the code it tests');
      }
    }
    if (s.testCount && isTest && change.before !== null && change.after !== null && before !== null && after !== null) {
      const was = await this.counter.count(path, change.before, before);
      const now = was === null ? null : await this.counter.count(path, change.after, after);
      if (was !== null && now !== null && now.cases < was.cases) {
        return refusal(
          'testCount',
          path,
          `This edit would take ${path} from ${plural(was.cases, 'test case')} to ${now.cases}`,
          'Removing a test that fails does not fix the code it tests',
          { before: was.cases, after: now.cases, counted: now.how },
        );
      }
    }
    const family = familyOf(path);
    if (family !== null && after !== null) {
      const was = before ?? '';
      const skip = s.skips ? addedMarker(SKIP_MARKERS[family], was, after) : null;
      if (skip) {
        const what = `This edit adds ${skip.label} to ${path} (${skip.before} → ${skip.after})`;
        return refusal('skips', path, what, 'Skipping or focusing tests hides failures instead of fixing them', { marker: skip.label });
      }
      const quiet = s.suppressions ? addedMarker(SUPPRESSION_MARKERS[family], was, after) : null;
      if (quiet) {
        const what = `This edit adds ${quiet.label} to ${path} (${quiet.before} → ${quiet.after})`;
        return refusal('suppressions', path, what, 'Silencing a check hides the problem instead of fixing it', { marker: quiet.label });
      }
    }
    return null;
  }

  /** Ends the child process a count may have started. */
  close(): void {
    this.counter.close();
  }
}

function refusal(guard: GuardName, path: string, what: string, why: string, more: Record<string, unknown> = {}): Failure {
  return failure('guard', `${what}: the guards hold that ${GUARD_PURPOSE[guard]}. ${why}; change the code under test instead.`, { guard, path, ...more });
}

function configRefusal(path: string, what: string): Failure {
  return failure(
    'guard',
    `${path} holds the settings the checks read (${what}), and the guards hold that ${GUARD_PURPOSE.config}: turning a check off, ` +
      'loosening it or narrowing what it reads is not a fix. Fix the code the check complains about instead.',
    { guard: 'config', path },
  );
}

function textOf(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  const d = decodeText(bytes);
  return d.ok ? d.value.text : null;
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  return a !== null && b !== null && Buffer.from(a).equals(b);
}

const LINE_COMMENT: Readonly<Record<Family, RegExp>> = {
  js: /\/\/[^\n]*/g,
  go: /\/\/[^\n]*/g,
  java: /\/\/[^\n]*/g,
  python: /#[^\n]*/g,
};

/** Nothing but whitespace and comments (block comments too in the C-like families; # lines in Ruby and others). */
function isBlank(text: string, family: Family | null): boolean {
  let rest = text;
  if (family === 'python') rest = rest.replace(LINE_COMMENT.python, '');
  else if (family !== null) rest = rest.replace(/\/\*[^]*?\*\//g, '').replace(LINE_COMMENT[family], '');
  else rest = rest.replace(/^[ \t]*#[^\n]*/gm, '');
  return rest.trim() === '';
}

/**
 * The check settings a change touches in files that hold other things too: package.json's scripts and
 * runner/linter keys, pyproject.toml's [tool.*] tables. Null when those parts are unchanged.
 */
function changedCheckSection(path: string, before: string, after: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (name === 'package.json') {
    const a = parseObject(before);
    const b = parseObject(after);
    if (a === null || b === null) return null;
    const key = PACKAGE_JSON_CHECK_KEYS.find((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    return key === undefined ? null : `its "${key}" key`;
  }
  if (name === 'pyproject.toml') {
    const a = toolTables(before);
    const b = toolTables(after);
    for (const t of new Set([...a.keys(), ...b.keys()])) if (a.get(t) !== b.get(t)) return `its [${t}] table`;
  }
  return null;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The [tool.*] tables of a TOML file (header → body text, whitespace-trimmed lines). */
function toolTables(text: string): Map<string, string> {
  const tables = new Map<string, string>();
  let current: string | null = null;
  for (const line of text.split('\n')) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
    if (header) {
      const name = header[1] as string;
      current = name.startsWith('tool.') ? name : null;
      if (current !== null) tables.set(current, tables.get(current) ?? '');
      continue;
    }
    if (current !== null && line.trim() !== '') tables.set(current, `${tables.get(current)}${line.trim()}\n`);
  }
  return tables;
}
