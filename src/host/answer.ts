// What a host answered, checked before it is read: an HTML page (a proxy's or a login's), JSON cut
// short, or JSON of another shape (a GITHUB_API_URL that points at the wrong server) becomes one
// `host` error sentence, so the job fails with pr-failed instead of scion failing on a missing field.
import { hostError } from '../errors.js';

export type HostName = 'GitHub' | 'GitLab';
export type Shape<T> = (data: unknown) => data is T;

const variableOf = (host: HostName) => (host === 'GitHub' ? 'GITHUB_API_URL' : 'GITLAB_API_URL');

export const isRecord = (d: unknown): d is Record<string, unknown> => d !== null && typeof d === 'object' && !Array.isArray(d);
export const isList = (d: unknown): d is Record<string, unknown>[] => Array.isArray(d) && d.every(isRecord);
/** Any JSON object or list: what every API call answers, whatever it holds. */
export const isJson = (d: unknown): d is Record<string, unknown> | unknown[] => d !== null && typeof d === 'object';

/** `<title>` or `<h1>` of an HTML page, for a sentence; null when `text` is no HTML. */
export function htmlTitle(text: string): string | null {
  if (!/^\s*(<!doctype html|<html|<head|<body|<h1|<title)/i.test(text)) return null;
  const m = /<title[^>]*>([^<]*)<\/title>|<h1[^>]*>([^<]*)<\/h1>/i.exec(text);
  const title = (m?.[1] ?? m?.[2] ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
  return title === '' ? 'an HTML page' : `an HTML page ("${title}")`;
}

/** A short account of a body that is not the JSON asked for. */
function describe(body: unknown): string {
  if (typeof body !== 'string') return `JSON of another shape (${JSON.stringify(body)?.slice(0, 80) ?? String(body)})`;
  const html = htmlTitle(body);
  if (html !== null) return html;
  const text = body.trim();
  return text === '' ? 'an empty body' : `text that is not valid JSON ("${text.slice(0, 60)}${text.length > 60 ? '…' : ''}")`;
}

/** `data` when it has the shape asked for; else the HostError that says what came instead. */
export function expectAnswer<T>(data: unknown, shape: Shape<T>, host: HostName, what: string, apiUrl: string): T {
  if (shape(data)) return data;
  throw hostError(
    `${host} answered ${describe(data)} while ${what}, not what the ${host} API answers; check that ${variableOf(host)} (${apiUrl}) is the ${host} API.`,
    200,
  );
}

/** A fetch Response's body as JSON of `shape` (null for 204), or the HostError that says what came instead. */
export async function readAnswer<T>(res: Response, shape: Shape<T>, host: HostName, what: string, apiUrl: string): Promise<T | null> {
  if (res.status === 204) return null;
  const text = await res.text();
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON: described as the text it is.
  }
  return expectAnswer(data, shape, host, what, apiUrl);
}
