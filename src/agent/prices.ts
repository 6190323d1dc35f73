// Claude list prices in US dollars per million tokens, compiled on 2026-12-02 from the model pages of
// https://platform.claude.com/docs/about-claude/models and /pricing. Cache writes are the 5-minute TTL
// price (what `cache_control: ephemeral` buys), cache reads the "cache hits" price. The Message Batches
// API bills half of every figure. A model missing here is counted at no cost, with a log line: add it
// (and move PRICES_DATE) rather than guess. Models priced by prompt length (Haiku 5.5) are left out.
export const PRICES_DATE = '2026-12-02';

export interface Price {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
}

const p = (input: number, output: number, cacheWrite: number, cacheRead: number): Price => ({ input, output, cacheWrite, cacheRead });

/** Keyed by model id; a dated id (claude-sonnet-4-5-20250929) or a -latest alias finds its family's price. */
const TABLE: ReadonlyMap<string, Price> = new Map(
  Object.entries({
    'claude-opus-5-5': p(4, 20, 5, 0.2),
    'claude-opus-5': p(5, 25, 6.25, 0.5),
    'claude-opus-4-6': p(5, 25, 6.25, 0.5),
    'claude-opus-4-5': p(5, 25, 6.25, 0.5),
    'claude-opus-4-1': p(15, 75, 18.75, 1.5),
    'claude-opus-4': p(15, 75, 18.75, 1.5),
    'claude-opus-4-0': p(15, 75, 18.75, 1.5),
    'claude-sonnet-5-5': p(2, 10, 2.5, 0.2),
    'claude-sonnet-5': p(2, 10, 2.5, 0.2),
    'claude-sonnet-4-6': p(3, 15, 3.75, 0.3),
    'claude-sonnet-4-5': p(3, 15, 3.75, 0.3),
    'claude-sonnet-4': p(3, 15, 3.75, 0.3),
    'claude-sonnet-4-0': p(3, 15, 3.75, 0.3),
    'claude-3-7-sonnet': p(3, 15, 3.75, 0.3),
    'claude-haiku-4-5': p(1, 5, 1.25, 0.1),
    'claude-3-5-haiku': p(0.8, 4, 1, 0.08),
    'claude-3-haiku': p(0.25, 1.25, 0.3, 0.03),
  }),
);

export const BATCH_DISCOUNT = 0.5;

/**
 * The price of a model; null for a model the table does not know. Only an exact id, a dated id or a
 * -latest alias matches: claude-opus-4-7 must not be priced as claude-opus-4.
 */
export function priceOf(model: string): Price | null {
  const family = model.replace(/-(\d{8}|latest)$/, '');
  return TABLE.get(family) ?? null;
}

export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
}

export function costOf(price: Price, t: TokenCounts, batch: boolean): number {
  const full = (t.input * price.input + t.output * price.output + t.cacheWrite * price.cacheWrite + t.cacheRead * price.cacheRead) / 1_000_000;
  return batch ? full * BATCH_DISCOUNT : full;
}
