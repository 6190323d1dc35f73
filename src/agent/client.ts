// The SDK client, configured from the step's environment only (never process.env), with the SDK's own
// log lines routed through the step's log (and the key redaction).
import Anthropic from '@anthropic-ai/sdk';
import type { Redactor } from '../redact.js';
import type { AgentClientOptions } from './types.js';

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_MAX_RETRIES = 2;

export function makeClient(
  apiKey: string,
  env: Readonly<Record<string, string | undefined>>,
  opts: AgentClientOptions,
  log: (message: string) => void,
  redact: Redactor,
): Anthropic {
  const say = (level: string) => (message: string, ...rest: unknown[]) => log(redact(`anthropic-sdk ${level}: ${[message, ...rest.map(show)].join(' ')}`));
  return new Anthropic({
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
