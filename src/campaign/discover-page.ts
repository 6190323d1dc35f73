// What discovery's sources share: the context discover.ts builds once per host, and the Link header.
import { shownUrl } from '../host/remote.js';
import { hostError } from '../errors.js';
import type { RepoTarget } from './targets.js';
import { plural } from '../util/plural.js';

/** What to discover: one source per field set (sources may be combined). */
export interface DiscoverQuery {
  /** Every repository of this GitHub organisation (forks and archived ones left out unless asked). */
  readonly githubOrg?: string;
  /** Keep only repositories carrying this topic (GitHub topics, GitLab topics). */
  readonly topic?: string;
  /** Keep forks (githubOrg, gitlabGroup). Default false. */
  readonly includeForks?: boolean;
  /** Keep archived repositories (githubOrg, gitlabGroup). Default false. */
  readonly includeArchived?: boolean;
  /** A GitHub repository search (`org:acme language:typescript`); its own `fork:`/`archived:` apply. */
  readonly githubSearch?: string;
  /** Every project of this GitLab group and its subgroups (`group` or `group/subgroup`). */
  readonly gitlabGroup?: string;
}

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
  /** The most pages one listing may take (MAX_PAGES unless a caller says otherwise). */
  readonly maxPages: number;
  /** Makes each wait before a retry; default a timer. */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Checks a clone URL the server returned; a target, or null after saying why it was left out. */
  readonly target: (f: Found) => RepoTarget | null;
}

/** The most pages one listing may take: 1,000 pages of 100 is 100,000 repositories. */
export const MAX_PAGES = 1000;

/**
 * The pages of one listing, each asked once: a next page that comes back to a page already read,
 * or a listing past MAX_PAGES, ends discovery with a HostError rather than reading forever or
 * running a campaign over part of a listing.
 */
export class PageWalk {
  private readonly seen = new Set<string>();

  constructor(
    private readonly host: 'GitHub' | 'GitLab',
    private readonly what: string,
    private readonly variable: string,
    private readonly max: number = MAX_PAGES,
  ) {}

  /** Called with each page's URL (or, for the first, any key of it) before it is asked for. */
  visit(page: string): void {
    if (this.seen.has(page)) {
      throw hostError(
        `${this.host} pointed its next page back at a page already read (${shownUrl(page)}) while ${this.what}; scion stops there rather than read ` +
          `it again: check ${this.variable}.`,
        null,
      );
    }
    if (this.seen.size >= this.max) {
      throw hostError(
        `${this.host} still had a next page after ${this.max} pages while ${this.what}; scion stops there rather than read on: narrow the listing ` +
          `(--topic, a search) or check ${this.variable}.`,
        null,
      );
    }
    this.seen.add(page);
  }
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
      throw hostError(`The API at ${shownUrl(apiUrl)} pointed its next page at another server (${next.origin}); scion does not follow it there.`, null);
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
