// Inflating one pack object whose size the pack header gives. `zlib.inflateSync` builds a stream, a
// zlib state and its 32 KB window for every call and tears them down after it: ~9 µs an object,
// which on a 27,000-file tree (13,000 trees, 27,000 blobs, mostly small) was a third of the time a
// whole-tree scan took. Here one zlib state per thread is reset and used again, writing straight
// into a buffer of the object's size.
//
// Node has no public call for that: the state is the native handle under an Inflate stream (its
// `writeSync` and `reset`, which `inflateSync` itself drives). Where that handle is not what is
// expected, and for every object that does not inflate cleanly to exactly its size, the answer is
// `inflateSync`'s, so errors and their messages are the ones it gives.
import { constants, createInflate, inflateSync, type Inflate } from 'node:zlib';

/** The parts of Node's native zlib handle used here. */
interface NativeInflate {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  reset(): void;
  onerror: (message: string, errno: number) => void;
}

interface Reusable {
  readonly stream: Inflate;
  readonly handle: NativeInflate;
  /** [output bytes left, input bytes left] after a write. */
  readonly state: Uint32Array;
  failed: boolean;
}

/** This thread's reusable state; null when none could be made (then every call uses `inflateSync`). */
let reusable: Reusable | null | undefined;

function make(): Reusable | null {
  try {
    const stream = createInflate();
    const inner = stream as unknown as { _handle?: Partial<NativeInflate>; _writeState?: unknown };
    const handle = inner._handle;
    const state = inner._writeState;
    if (!handle || typeof handle.writeSync !== 'function' || typeof handle.reset !== 'function' || !(state instanceof Uint32Array)) {
      stream.close();
      return null;
    }
    const made: Reusable = { stream, handle: handle as NativeInflate, state, failed: false };
    // Errors come back synchronously through this callback (Node's own would destroy the stream).
    made.handle.onerror = () => {
      made.failed = true;
    };
    return made;
  } catch {
    return null;
  }
}

/**
 * The zlib stream at the start of `input` inflated: exactly `size` bytes, or what `inflateSync`
 * gives or throws for it with `maxOutputLength: size + 1` (bytes after the stream's end are ignored).
 */
export function inflateSized(input: Buffer, size: number): Buffer {
  if (reusable === undefined) reusable = make();
  const z = reusable;
  if (z !== null) {
    const out = Buffer.allocUnsafe(size + 1);
    z.handle.reset();
    z.failed = false;
    z.handle.writeSync(constants.Z_FINISH, input, 0, input.length, out, 0, size + 1);
    // One byte of room left and no error: the stream ended after exactly `size` bytes.
    if (!z.failed && z.state[0] === 1) return out.subarray(0, size);
    if (z.failed) {
      // A state that saw an error is not trusted again: the next call makes a fresh one.
      z.stream.close();
      reusable = undefined;
    }
  }
  return inflateSync(input, { chunkSize: Math.min(Math.max(64, size + 1), 64 * 1024 * 1024), maxOutputLength: size + 1 });
}

/** Whether this thread inflates with a reused zlib state (false: Node's handle is not as expected, every call is `inflateSync`). */
export function reusesInflateState(): boolean {
  if (reusable === undefined) reusable = make();
  return reusable !== null;
}
