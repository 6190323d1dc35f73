// fsck's submodule URL rule (check_submodule_url), in both forms git has shipped: up to 2.43 the
// URL of an http(s)/ftp(s) transport had to parse as a credential URL (credential_from_url_gently,
// with a host and no newline in any part); since then it must normalise (url_normalize) and hold no
// newline once decoded. A URL either form refuses is refused, so a commit passes the fsck of old and
// new servers alike. Strings hold bytes (latin1), as git's C strings do. Pure.

/** Why git's fsck refuses `url` as a submodule URL, or null. */
export function submoduleUrlProblem(url: string): string | null {
  if (url.startsWith('-')) return 'starts with "-", so git would read it as a command-line option';
  if (isRelative(url) || url.startsWith('git://')) {
    // It may be appended to an http URL and decoded there.
    if (urlDecode(url).includes('\n')) return 'holds a newline once %-decoded';
    // "../" past the top of the remote lands in its host part (CVE-2020-11008).
    let rest = url;
    let ups = 0;
    for (;;) {
      if (startsWithDotSlash(rest, 2)) {
        ups++;
        rest = rest.slice(3);
      } else if (startsWithDotSlash(rest, 1)) rest = rest.slice(2);
      else break;
    }
    if (ups > 0 && (rest.startsWith(':') || rest.startsWith('/'))) return 'climbs out of its remote with "../" into a host or a scheme';
    return null;
  }
  const curl = curlUrl(url);
  if (curl === null) return null;
  return credentialUrlProblem(curl) ?? normalizedUrlProblem(curl);
}

/** `./` and `../` with either slash (path_match_flags with PATH_MATCH_XPLATFORM). */
function startsWithDotSlash(s: string, dots: 1 | 2): boolean {
  for (let i = 0; i < dots; i++) if (s[i] !== '.') return false;
  return s[dots] === '/' || s[dots] === '\\';
}

function isRelative(url: string): boolean {
  return startsWithDotSlash(url, 1) || startsWithDotSlash(url, 2);
}

/** The URL git-remote-curl would get (url_to_curl_url), or null for another transport. */
function curlUrl(url: string): string | null {
  for (const p of ['http::', 'https::', 'ftp::', 'ftps::']) if (url.startsWith(p)) return url.slice(p.length);
  return /^(https?|ftps?):\/\//.test(url) ? url : null;
}

function hexVal(c: string | undefined): number {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c) ? parseInt(c, 16) : -1;
}

/** hex2chr: the byte a %XX stands for, or -1. */
function hex2(s: string, i: number): number {
  const a = hexVal(s[i]);
  const b = hexVal(s[i + 1]);
  return a < 0 || b < 0 ? -1 : (a << 4) | b;
}

/** url.c url_decode_mem: %XX decoded (never %00), except in whatever precedes the first colon. */
function urlDecode(s: string): string {
  const colon = s.indexOf(':');
  let out = colon > 0 ? s.slice(0, colon) : '';
  for (let i = colon > 0 ? colon : 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '\0') break;
    if (c === '%' && s.length - i >= 3) {
      const v = hex2(s, i + 1);
      if (v > 0) {
        out += String.fromCharCode(v);
        i += 2;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/** credential.c credential_from_url_1, not partial: a scheme, a host, and no newline in any part. */
function credentialUrlProblem(url: string): string | null {
  const protoEnd = url.indexOf('://');
  if (protoEnd <= 0) return 'has no scheme:// part';
  const cp = protoEnd + 3;
  const at = url.indexOf('@', cp);
  const colon = url.indexOf(':', cp);
  let slash = cp;
  while (slash < url.length && !'/?#'.includes(url[slash] as string)) slash++;
  const parts: string[] = [url.slice(0, protoEnd)];
  let host = cp;
  if (at !== -1 && at < slash) {
    if (colon === -1 || at <= colon) parts.push(urlDecode(url.slice(cp, at)));
    else parts.push(urlDecode(url.slice(cp, colon)), urlDecode(url.slice(colon + 1, at)));
    host = at + 1;
  }
  const hostName = urlDecode(url.slice(host, slash));
  parts.push(hostName);
  let p = slash;
  while (url[p] === '/') p++;
  if (p < url.length) parts.push(urlDecode(url.slice(p)));
  if (parts.some((x) => x.includes('\n'))) return 'holds a newline once %-decoded';
  if (hostName === '') return 'has no host';
  return null;
}

const SCHEME_CHARS = /^[A-Za-z0-9+.-]*/;
const HOST_CHARS = /^[A-Za-z0-9.\-_[:\]]*/;

/** The escapes of one part are well formed (append_normalized_escapes); the decoded bytes, or null. */
function unescapePart(s: string): string | null {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c !== '%') {
      out += c;
      continue;
    }
    if (s.length - i - 1 < 2) return null;
    const v = hex2(s, i + 1);
    if (v < 0) return null;
    out += String.fromCharCode(v);
    i += 2;
  }
  return out;
}

/** urlmatch.c url_normalize: a URL it cannot normalise, or one that decodes to a newline. */
function normalizedUrlProblem(url: string): string | null {
  const scheme = SCHEME_CHARS.exec(url)?.[0] ?? '';
  if (scheme === '' || !/^[A-Za-z]/.test(url) || url.slice(scheme.length, scheme.length + 3) !== '://') return 'has no valid scheme:// part';
  const isFile = scheme.toLowerCase() === 'file';
  let rest = url.slice(scheme.length + 3);
  const decoded: string[] = [];
  let slash = rest.search(/[/?#]/);
  if (slash === -1) slash = rest.length;
  const at = rest.indexOf('@');
  if (at !== -1 && at < slash) {
    const user = unescapePart(rest.slice(0, at));
    if (user === null) return 'holds a broken %-escape';
    decoded.push(user);
    rest = rest.slice(at + 1);
    slash -= at + 1;
  }
  if (rest === '' || ':/?#'.includes(rest[0] as string)) {
    if (!isFile) return 'has no host';
  }
  // The port is what follows the last ':' of the authority that is not inside an IPv6 literal.
  let colon = slash - 1;
  while (colon > 0 && rest[colon] !== ':' && rest[colon] !== ']') colon--;
  if (rest[colon] !== ':') colon = slash;
  const hostPart = rest.slice(0, colon);
  if ((HOST_CHARS.exec(hostPart)?.[0] ?? '').length < hostPart.length) return 'holds characters no host name may have';
  if (colon < slash) {
    const port = rest.slice(colon + 1, slash).replace(/^0+(?=.)/, '');
    if (port !== '' && !(port === '80' && scheme.toLowerCase() === 'http') && !(port === '443' && scheme.toLowerCase() === 'https')) {
      if (!/^[0-9]+$/.test(port)) return 'has an invalid port';
      const n = port.length <= 5 ? Number(port) : 0;
      if (n === 0 || n > 65535) return 'has an invalid port';
    }
  }
  rest = rest.slice(slash);
  // The path, segment by segment: "." dropped, ".." removing the one before (none before: invalid).
  let query = '';
  const q = rest.search(/[?#]/);
  if (q !== -1) {
    query = rest.slice(q);
    rest = rest.slice(0, q);
  }
  const segments: string[] = [];
  for (const raw of (rest.startsWith('/') ? rest.slice(1) : rest).split('/')) {
    const seg = unescapePart(raw);
    if (seg === null) return 'holds a broken %-escape';
    decoded.push(seg);
    if (seg === '.') continue;
    if (seg === '..') {
      if (segments.length === 0) return 'has a ".." that climbs above its root';
      segments.pop();
      continue;
    }
    segments.push(seg);
  }
  if (query !== '') {
    const tail = unescapePart(query);
    if (tail === null) return 'holds a broken %-escape';
    decoded.push(tail);
  }
  if (decoded.some((d) => d.includes('\n'))) return 'holds a newline once %-decoded';
  return null;
}
