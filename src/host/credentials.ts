// The one credential rule: which secret goes to which origin (scheme, host and port). Clone, fetch,
// push, pruning and every host API call ask this module, and nothing else decides.
//
// - A forge's token goes only to that forge's own origins: GitHub's token (GITHUB_TOKEN, else
//   GIT_TOKEN) to GITHUB_SERVER_URL's origin (https://github.com by default) and GITHUB_API_URL's
//   (https://api.github.com); GitLab's (GITLAB_TOKEN, else GIT_TOKEN) to CI_SERVER_URL's or
//   GITLAB_API_URL's origin (https://gitlab.com by default). Another host, or the same host on
//   another port or scheme, gets nothing.
// - Credentials written in a URL (`https://user:secret@host/…`) win, for that URL's own origin only.
// - git's configured `http.<url>.extraHeader` comes last, for the URL it is configured for.
// - Nothing is sent in clear text to another machine: only HTTPS, or plain HTTP to a loopback address.
// - Over git's smart HTTP a credential is offered only once the origin answered 401 (git/transport.ts's
//   guardedHttp does that, and never carries it along a redirect to another origin); API calls carry
//   their forge's token on every request to the API's own origin, and nowhere else (host/http.ts).
//
// Self-contained on purpose (no imports of scion's own modules): hosts, URLs and tokens form their
// own layer below publishing and campaigns.

export type Env = Readonly<Record<string, string | undefined>>;
export type ForgeKind = 'github' | 'gitlab';

/** A forge as the environment configures it: where its git server and API are, and its token. */
export interface Forge {
  readonly kind: ForgeKind;
  /** Origin of the web and git server: https://github.com, https://gitlab.example, http://127.0.0.1:8080. */
  readonly server: string;
  /** The API's base URL, no trailing slash. */
  readonly api: string;
  /** The variable that names the API URL, for messages. */
  readonly apiVariable: 'GITHUB_API_URL' | 'GITLAB_API_URL';
  /** The variable that names the server, for messages. */
  readonly serverVariable: 'GITHUB_SERVER_URL' | 'CI_SERVER_URL';
  /** The token and the variable it came from; null when none is set. */
  readonly token: { readonly value: string; readonly variable: string } | null;
  /** The Basic-auth user name its git servers expect with the token. */
  readonly gitUser: 'x-access-token' | 'oauth2';
}

/** A credential bound to one origin: the headers to offer there, and where they came from. */
export interface Credential {
  readonly origin: string;
  readonly headers: Readonly<Record<string, string>>;
  /** `url`: written in the URL; `token`: a forge's token from the environment; `config`: git's extraHeader. */
  readonly source: 'url' | 'token' | 'config';
  /** For `token`: the variable it came from (GITHUB_TOKEN, GIT_TOKEN, GITLAB_TOKEN). */
  readonly variable?: string;
}

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and ::1: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '::1' || h === '0:0:0:0:0:0:0:1';
}

/** Whether credentials may travel to `url` at all: over HTTPS, or over plain HTTP to this machine. */
export function mayCarryCredentials(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname));
  } catch {
    return false;
  }
}

/** scheme://host[:port] of an http(s) URL (the default port left out, as browsers write it); null otherwise. */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

const trim = (url: string) => url.trim().replace(/\/+$/, '');

/**
 * GitHub as configured: GITHUB_SERVER_URL (else the server GITHUB_API_URL belongs to, else
 * github.com) and GITHUB_API_URL (else api.github.com for github.com, `<server>/api/v3` for an
 * Enterprise server).
 */
export function githubForge(env: Env): Forge {
  const apiSet = env['GITHUB_API_URL'] ? trim(env['GITHUB_API_URL']) : null;
  const apiOrigin = originOf(apiSet ?? undefined);
  const server = originOf(env['GITHUB_SERVER_URL']) ?? (apiOrigin === null || apiOrigin === 'https://api.github.com' ? 'https://github.com' : apiOrigin);
  const api = apiSet ?? (server === 'https://github.com' ? 'https://api.github.com' : `${server}/api/v3`);
  const token = env['GITHUB_TOKEN']
    ? { value: env['GITHUB_TOKEN'], variable: 'GITHUB_TOKEN' }
    : env['GIT_TOKEN']
      ? { value: env['GIT_TOKEN'], variable: 'GIT_TOKEN' }
      : null;
  return { kind: 'github', server, api, apiVariable: 'GITHUB_API_URL', serverVariable: 'GITHUB_SERVER_URL', token, gitUser: 'x-access-token' };
}

/** GitLab as configured: CI_SERVER_URL (else GITLAB_API_URL's origin, else gitlab.com) and GITLAB_API_URL (else `<server>/api/v4`). */
export function gitlabForge(env: Env): Forge {
  const apiSet = env['GITLAB_API_URL'] ? trim(env['GITLAB_API_URL']) : null;
  const server = originOf(env['CI_SERVER_URL']) ?? originOf(apiSet ?? undefined) ?? 'https://gitlab.com';
  const ci = env['CI_SERVER_URL'] ? trim(env['CI_SERVER_URL']) : null;
  const api = apiSet ?? `${ci ?? server}/api/v4`;
  const token = env['GITLAB_TOKEN']
    ? { value: env['GITLAB_TOKEN'], variable: 'GITLAB_TOKEN' }
    : env['GIT_TOKEN']
      ? { value: env['GIT_TOKEN'], variable: 'GIT_TOKEN' }
      : null;
  return { kind: 'gitlab', server, api, apiVariable: 'GITLAB_API_URL', serverVariable: 'CI_SERVER_URL', token, gitUser: 'oauth2' };
}

export function forge(kind: ForgeKind, env: Env): Forge {
  return kind === 'github' ? githubForge(env) : gitlabForge(env);
}

/** Whether `url` lives on one of the forge's own origins (its server or its API). */
export function onForge(f: Forge, url: string): boolean {
  const o = originOf(url);
  return o !== null && (o === f.server || o === originOf(f.api));
}

/** The forge whose origin `url` is on (GitLab's first: it is only ever configured on purpose), or null. */
export function forgeAt(url: string, env: Env): Forge | null {
  for (const f of [gitlabForge(env), githubForge(env)]) if (onForge(f, url)) return f;
  return null;
}

/** `url` without the `user:password@` part, and that part decoded (null when there is none). */
export function splitUserinfo(url: string): { readonly url: string; readonly userinfo: string | null } {
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return { url, userinfo: null };
    const userinfo = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
    u.username = '';
    u.password = '';
    return { url: u.toString(), userinfo };
  } catch {
    return { url, userinfo: null };
  }
}

const basic = (userinfo: string) => `Basic ${Buffer.from(userinfo).toString('base64')}`;

/**
 * What git's smart HTTP may offer `url` once it answers 401: the URL's own credentials, else the
 * token of the forge that URL is on, else `configured` (git's extraHeader for that URL). The URL
 * comes back without credentials, so no clone's config and no message ever holds them. null: the
 * URL gets nothing (another host, or plain HTTP to another machine).
 */
export function gitCredential(
  url: string,
  env: Env,
  configured: Readonly<Record<string, string>> = {},
): { readonly url: string; readonly credential: Credential | null } {
  const { url: bare, userinfo } = splitUserinfo(url);
  const origin = originOf(bare);
  if (origin === null || !mayCarryCredentials(bare)) return { url: bare, credential: null };
  if (userinfo !== null) return { url: bare, credential: { origin, headers: { authorization: basic(userinfo) }, source: 'url' } };
  const f = forgeAt(bare, env);
  if (f !== null && f.token !== null) {
    return {
      url: bare,
      credential: { origin, headers: { authorization: basic(`${f.gitUser}:${f.token.value}`) }, source: 'token', variable: f.token.variable },
    };
  }
  if (Object.keys(configured).length > 0) return { url: bare, credential: { origin, headers: lowerKeys(configured), source: 'config' } };
  return { url: bare, credential: null };
}

/** Every token the environment holds for a forge, for redaction of what hosts answer. */
export function forgeTokens(env: Env): string[] {
  return [githubForge(env).token?.value, gitlabForge(env).token?.value].filter((t): t is string => typeof t === 'string' && t !== '');
}

/**
 * What to do when a git server asked for credentials (401) or refused them (403): which credential
 * went (and so which one to fix), or why none did (the credential rule's reasons, in its words).
 */
export function credentialAdvice(url: string, kind: ForgeKind, credential: Credential | null, detail: string, verb: 'push' | 'clone', server: string): string {
  const variable = kind === 'gitlab' ? 'GITLAB_TOKEN' : 'GITHUB_TOKEN';
  if (credential !== null) {
    switch (credential.source) {
      case 'token':
        return `the server refused the token (${detail}); set ${credential.variable ?? variable} to a token allowed to ${verb} there.`;
      case 'url':
        return `the server refused the credentials written in the URL (${detail}); correct them, or drop them from the URL and set ${variable}.`;
      case 'config':
        return `the server refused the credentials of git's http.extraHeader for this URL (${detail}); correct that setting, or set ${variable}.`;
    }
  }
  if (!mayCarryCredentials(url)) {
    return `the server asks for credentials (${detail}), and scion sends credentials only over HTTPS (or to this machine); use the repository's https URL.`;
  }
  const setting = kind === 'gitlab' ? 'CI_SERVER_URL' : 'GITHUB_SERVER_URL';
  return (
    `the server asks for credentials (${detail}), and scion has none for ${originOf(url) ?? url}: ${variable} goes only to ${server}; ` +
    `set ${setting} if ${originOf(url) ?? 'this'} is your server, or write the credentials in the URL.`
  );
}

function lowerKeys(h: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
