// Author/committer lines: "Name <email> <unix seconds> <+hhmm>".
import { gitError } from './errors.js';

/**
 * A commit's author or committer. `timezoneOffset` follows isomorphic-git and
 * `Date#getTimezoneOffset()`: minutes *behind* UTC, so UTC+02:00 is -120. Defaults: now, local zone.
 */
export interface Identity {
  name: string;
  email: string;
  timestamp?: number;
  timezoneOffset?: number;
}

export type FullIdentity = Required<Identity>;

export function formatIdentity(who: Identity, now: Date = new Date()): string {
  // git strips these rather than write an ident line `git fsck` would reject.
  const clean = (s: string): string => s.replace(/[<>\n\r\0]/g, '').trim();
  const name = clean(who.name);
  const email = clean(who.email);
  if (name === '') throw gitError('invalid-argument', "A commit needs an author name; set user.name or the recipe's author.");
  const timestamp = who.timestamp ?? Math.floor(now.getTime() / 1000);
  const offset = who.timezoneOffset ?? now.getTimezoneOffset();
  const east = -offset;
  const abs = Math.abs(east);
  const tz = `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${name} <${email}> ${Math.floor(timestamp)} ${tz}`;
}

export function parseIdentity(line: string): FullIdentity {
  const m = /^(.*?) ?<([^>]*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(line);
  if (!m) return { name: line, email: '', timestamp: 0, timezoneOffset: 0 };
  const minutes = Number(m[5]) * 60 + Number(m[6]);
  const offset = m[4] === '-' ? minutes : -minutes;
  // Avoid -0 for UTC.
  return { name: m[1] as string, email: m[2] as string, timestamp: Number(m[3]), timezoneOffset: offset === 0 ? 0 : offset };
}
