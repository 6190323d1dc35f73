// One redaction pass: secret values from the environment and credentials in URLs are
// replaced by `***` wherever text leaves scion (reports, PR bodies, step summaries, HTML,
// annotations, the terminal). Built once from the environment and handed down; never read from
// `process.env` here, so the same text redacts the same way in a test and in a run.

export type Redactor = (text: string) => string;

/** Variables that always hold secrets, whatever their name says. */
const ALWAYS = new Set(['GITHUB_TOKEN', 'GIT_TOKEN', 'GITLAB_TOKEN', 'ANTHROPIC_API_KEY', 'GH_TOKEN']);

/** `*TOKEN*`, `*SECRET*`, `*PASSWORD*`, `*_KEY` (case-insensitive). */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|_KEY$/i;

/** Shorter values would blank out ordinary words ("1", "true"): no real credential is this short. */
const MIN_SECRET_LENGTH = 6;

/** The secret values named by the environment, longest first (so a value containing another is masked whole). */
export function secretsOf(env: Readonly<Record<string, string | undefined>>, extra: readonly string[] = []): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_SECRET_LENGTH) continue;
    if (ALWAYS.has(name) || SECRET_NAME.test(name)) found.add(value);
  }
  for (const value of extra) if (value.length >= MIN_SECRET_LENGTH) found.add(value);
  return [...found].sort((a, b) => b.length - a.length);
}

// `scheme://user:password@host` and `https://token@host`: the userinfo part goes, the host stays.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:'"<>]+:[^\s/@'"<>]*|[^\s/@:'"<>]+)@(?=[^\s/@'"<>])/gi;

/**
 * `https://user:token@host/…` → `https://***@host/…` wherever a URL appears in `text`: the one URL
 * credential stripper (messages, reports, the terminal). `ssh://git@host` names a user and is kept.
 */
export function hideUrlCredentials(text: string): string {
  return text.includes('://') ? maskUrlCredentials(text) : text;
}

/** The same pattern, tried at one position only. */
const URL_USERINFO_AT = new RegExp(URL_USERINFO.source, 'iy');

/** What a credential in a URL becomes: ssh://git@host names a user, not a credential; http(s) userinfo is a token or a password. */
function masked(whole: string, scheme: string, userinfo: string): string {
  const isHttp = /^https?:\/\//i.test(scheme);
  return isHttp || userinfo.includes(':') ? `${scheme}***@` : whole;
}

/**
 * `text.replace(URL_USERINFO, masked)`, trying the pattern only where a URL can start: before each
 * "://". The plain replace tries it at every word of the text, which on a report holding a minified
 * file's diff took tens of milliseconds per pass. A match must start at a letter after a non-word
 * character (or at the text's start), inside the run of scheme characters that ends at the "://",
 * and left of where the previous match ended no new one starts, as with the global replace.
 */
function maskUrlCredentials(text: string): string {
  let out = '';
  let copied = 0;
  let from = 0;
  for (let q = text.indexOf('://'); q !== -1; q = text.indexOf('://', Math.max(q + 1, from))) {
    let start = q;
    while (start > from && isSchemeChar(text.charCodeAt(start - 1))) start--;
    while (start < q && !(isLetter(text.charCodeAt(start)) && (start === 0 || !isWordChar(text.charCodeAt(start - 1))))) start++;
    if (start === q) continue;
    URL_USERINFO_AT.lastIndex = start;
    const m = URL_USERINFO_AT.exec(text);
    if (m === null) continue;
    out += text.slice(copied, start) + masked(m[0], m[1] as string, m[2] as string);
    copied = from = start + m[0].length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** What `\w` matches (the pattern has no `u` flag). */
function isWordChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 95;
}

/** `[a-z0-9+.-]`, case-insensitive. */
function isSchemeChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 43 || c === 46 || c === 45;
}

/** A redactor for the secrets of `env` (plus `extra` values, e.g. a token given by flag). */
export function makeRedactor(env: Readonly<Record<string, string | undefined>>, extra: readonly string[] = []): Redactor {
  const secrets = secretsOf(env, extra);
  return (text) => {
    let out = text;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join('***');
    return out.includes('://') ? maskUrlCredentials(out) : out;
  };
}

/** Applies `redact` to every string inside a JSON-like value (a report), leaving its shape alone. */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}

export const noRedaction: Redactor = (text) => text;

/** What `redacting` needs of a run's context: its environment, its event sink, maybe a redactor. */
export interface RedactableContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly redact?: Redactor;
  readonly onEvent?: (e: never) => void;
}

/**
 * The context with its redactor settled (the given one, else one built from `env`) and an event
 * sink that redacts every string of every event before passing it on: log lines, step labels and
 * reports leave a job already clean, whoever listens.
 */
export function redacting<C extends RedactableContext>(ctx: C): C & { readonly redact: Redactor } {
  const redact = ctx.redact ?? makeRedactor(ctx.env);
  const sink = ctx.onEvent as ((e: unknown) => void) | undefined;
  const onEvent = sink === undefined ? undefined : (e: unknown) => sink(redactDeep(e, redact));
  return { ...ctx, redact, ...(onEvent === undefined ? {} : { onEvent }) };
}
