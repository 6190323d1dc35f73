// What discovery's sources share: the context discover.ts builds once per host, and the Link header.
import { shownUrl } from '../publish/remote.js';
import { HostError } from '../publish/types.js';
import type { RepoTarget } from './targets.js';
import { plural } from '../util/plural.js';

/** A repository as a source found it, before the checks every source shares. */
export interface Found {
  /** owner/name or the project path, for messages. */
  readonly name: string;
  readonly cloneUrl: unknown;
  readonly defaultBranch: unknown;
}

/** What a source needs from the caller: the client setup done once here for both hosts. */
export interface SourceContext {
  readonly apiUrl: string;
  /** The API URL as it may be shown (no user:password part). */
  readonly shownApi: string;
  readonly token: string;
  readonly fetch: typeof fetch | undefined;
  readonly say: (line: string) => void;
  /** Checks a clone URL the server returned; a target, or null after saying why it was left out. */
  readonly target: (f: Found) => RepoTarget | null;
}

/** The URL of rel="next" in a Link header, if it stays on the API's origin (a token goes with it). */
export function nextLink(link: string | null | undefined, apiUrl: string): string | null {
  if (!link) return null;
  // <url>; rel="next", <url>; rel="last": a URL may hold commas, so entries are split at `<`.
  for (const m of link.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /\brel\s*=\s*"?([^";,]+)"?/i.exec(m[2]!);
    if (rel === null || !rel[1]!.trim().split(/\s+/).includes('next')) continue;
    let next: URL;
    try {
      next = new URL(m[1]!, apiUrl);
    } catch {
      return null;
    }
    if (next.origin !== new URL(apiUrl).origin) {
      throw new HostError(`The API at ${shownUrl(apiUrl)} pointed its next page at another server (${next.origin}); scion does not follow it there.`, null);
    }
    return next.href;
  }
  return null;
}

/** `; left out 2 forks (…), 1 archived (…)` for a source's summary line, or '' when nothing was. */
export function leftOut(forks: number, archived: number, untagged: number, topic: string | undefined): string {
  const parts = [
    forks > 0 ? `${plural(forks, 'fork')} (include them with --include-forks)` : '',
    archived > 0 ? `${archived} archived (include them with --include-archived)` : '',
    untagged > 0 ? `${untagged} without the topic "${topic}"` : '',
  ].filter((s) => s !== '');
  return parts.length > 0 ? `; left out ${parts.join(', ')}` : '';
}
