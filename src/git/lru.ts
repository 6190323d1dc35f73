// A byte-bounded LRU for inflated pack objects: delta bases are read again and again while a chain
// of similar files is resolved (git keeps the same kind of cache, core.deltaBaseCacheLimit).
export class ByteLru<V extends { readonly data: Uint8Array }> {
  private readonly map = new Map<number, V>();
  private bytes = 0;

  constructor(
    private readonly limit: number,
    private readonly maxItem: number,
  ) {}

  get(key: number): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      // Re-insert so Map order is recency order.
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: number, v: V): void {
    if (v.data.length > this.maxItem || this.map.has(key)) return;
    this.map.set(key, v);
    this.bytes += v.data.length;
    if (this.bytes <= this.limit) return;
    for (const [k, old] of this.map) {
      this.map.delete(k);
      this.bytes -= old.data.length;
      if (this.bytes <= this.limit * 0.75) break;
    }
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }
}
