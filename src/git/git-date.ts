// The date formats git accepts in GIT_AUTHOR_DATE / GIT_COMMITTER_DATE (Documentation/date-formats.txt):
// git's internal `<unix seconds> <+hhmm>` (and `@<unix seconds>`), RFC 2822, ISO 8601, and the
// `git log` default. A date without a zone is local time, as in git.
import { gitError } from './errors.js';

export interface GitDate {
  /** Seconds since the epoch. */
  readonly timestamp: number;
  /** Minutes *behind* UTC, as `Date#getTimezoneOffset()` (UTC+02:00 is -120). */
  readonly timezoneOffset: number;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The date, or null when git would not accept it either. */
export function parseGitDate(text: string): GitDate | null {
  const s = text.trim();
  let m = /^@(\d+)(?:\s+([+-]\d{4}))?$/.exec(s) ?? /^(\d{9,})\s+([+-]\d{4})$/.exec(s);
  if (m) {
    const timestamp = Number(m[1]);
    return { timestamp, timezoneOffset: m[2] !== undefined ? zone(m[2]) : localOffset(timestamp) };
  }
  // RFC 2822: "Thu, 07 Apr 2005 22:13:13 +0200" (weekday optional, seconds optional).
  m = /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3})[a-z]*\s+(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s+([+-]\d{4}|Z|UTC?|GMT))?$/.exec(s);
  if (m) return build(Number(m[3]), month(m[2] as string), Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), m[7]);
  // ISO 8601: "2005-04-07T22:13:13", "2005-04-07 22:13:13+02:00", fractions ignored.
  m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(s);
  if (m) return build(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), m[7]);
  // git log's default: "Thu Apr 7 22:13:13 2005 +0200".
  m = /^[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})(?:\s+([+-]\d{4}))?$/.exec(s);
  if (m) return build(Number(m[6]), month(m[1] as string), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), m[7]);
  return null;
}

/** As parseGitDate, but a value git would refuse is an `environment` error naming the variable. */
export function gitDateFromEnv(name: string, value: string): GitDate {
  const d = parseGitDate(value);
  if (d === null) {
    throw gitError(
      'environment',
      `${name}="${value}" is not a date git accepts; use "@<unix seconds> +hhmm", RFC 2822 ("Thu, 07 Apr 2005 22:13:13 +0200") or ISO 8601 ` +
        `("2005-04-07T22:13:13+02:00"), or unset it.`,
      { variable: name },
    );
  }
  return d;
}

function month(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function build(y: number, mo: number, d: number, h: number, mi: number, se: number, tz: string | undefined): GitDate | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return null;
  if (tz === undefined) {
    const local = new Date(y, mo - 1, d, h, mi, se);
    return { timestamp: Math.floor(local.getTime() / 1000), timezoneOffset: local.getTimezoneOffset() };
  }
  const offset = /^(Z|UTC?|GMT)$/.test(tz) ? 0 : zone(tz);
  const utc = Date.UTC(y, mo - 1, d, h, mi, se) / 1000 + offset * 60;
  return { timestamp: utc, timezoneOffset: offset };
}

/** "+0200" / "+02:00" / "+02" → minutes behind UTC (-120). */
function zone(tz: string): number {
  const digits = tz.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0);
  const v = tz[0] === '-' ? minutes : -minutes;
  return v === 0 ? 0 : v;
}

function localOffset(timestamp: number): number {
  return new Date(timestamp * 1000).getTimezoneOffset();
}
