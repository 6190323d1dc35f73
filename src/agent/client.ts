// The SDK client, configured from the step's environment only (never process.env), with the SDK's own
// log lines routed through the step's log (and the key redaction).
import { createRequire } from 'node:module';
import type Anthropic from '@anthropic-ai/sdk';
import type { Redactor } from '../redact.js';
import type { AgentClientOptions } from './types.js';

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_MAX_RETRIES = 2;

const require = createRequire(import.meta.url);

/**
 * The SDK, loaded on first use: it is ~280 modules (~0.5 s of start-up on this project's machine) and
 * only agent steps need it. Both this file and agent-run.ts get it from here, so its error classes are the
 * ones the client throws.
 */
export function sdk(): typeof Anthropic {
  const m = require('@anthropic-ai/sdk') as { default?: typeof Anthropic } & typeof Anthropic;
  return m.default ?? m;
}

export function makeClient(
  apiKey: string,
  env: Readonly<Record<string, string | undefined>>,
  opts: AgentClientOptions,
  log: (message: string) => void,
  redact: Redactor,
): Anthropic {
  const say =
    (level: string) =>
    (message: string, ...rest: unknown[]) =>
      log(redact(`anthropic-sdk ${level}: ${[message, ...rest.map(show)].join(' ')}`));
  const Client = sdk();
  return new Client({
    apiKey,
    // Passed even when unset: left undefined, the SDK would read process.env.ANTHROPIC_BASE_URL.
    baseURL: env['ANTHROPIC_BASE_URL'] || DEFAULT_BASE_URL,
    maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
    ...(opts.requestTimeoutMs === undefined ? {} : { timeout: opts.requestTimeoutMs }),
    logLevel: 'warn',
    logger: { error: say('error'), warn: say('warn'), info: say('info'), debug: say('debug') },
  });
}

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
