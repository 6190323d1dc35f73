// What a scan of many blobs looks for in each one, tested on the bytes before anything decodes them
// to text. The same test runs on the main thread and in the scan's worker threads (blob-scan.ts),
// so a probe is plain data: it crosses threads as it is.

export interface BlobProbe {
  /** A blob holding any of these byte strings comes back whole. Null: every blob comes back. */
  readonly needles: readonly Uint8Array[] | null;
  /**
   * A blob shorter than `below` bytes that starts with `prefix` comes back whole too, whatever it
   * holds (a Git LFS pointer, which the caller names as such).
   */
  readonly small?: { readonly prefix: Uint8Array; readonly below: number };
}

/** What a probe found in one blob. */
export interface ProbeResult {
  /** The blob comes back whole. */
  readonly match: boolean;
  /** git's test for a binary file (see `bufferIsBinary`). */
  readonly binary: boolean;
}

export function probeBlob(bytes: Uint8Array, probe: BlobProbe): ProbeResult {
  return { match: matches(bytes, probe), binary: bufferIsBinary(bytes) };
}

function matches(bytes: Uint8Array, probe: BlobProbe): boolean {
  if (probe.needles === null) return true;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const needle of probe.needles) if (buf.indexOf(needle) !== -1) return true;
  const small = probe.small;
  return small !== undefined && bytes.length < small.below && buf.subarray(0, small.prefix.length).equals(small.prefix);
}

/** git's buffer_is_binary: a NUL byte in the first 8000 bytes (here UTF-16 with a byte order mark is text). */
export function bufferIsBinary(bytes: Uint8Array): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return false;
  return bytes.subarray(0, 8000).includes(0);
}
