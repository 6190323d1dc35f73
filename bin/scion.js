#!/usr/bin/env node
// Node 22.8 and later keep a compile cache of scion's bundle between runs (module.enableCompileCache:
// start-up without compiling it again), in the system's temp folder or the folder NODE_COMPILE_CACHE
// names. Node 22.1 to 22.7 have the cache but not this call: there NODE_COMPILE_CACHE=<folder> set by
// the user turns it on. Node 20 has no cache and starts as before. The cache only saves time, so
// whatever stands in its way is silent.
import module from 'node:module';

try {
  module.enableCompileCache?.();
} catch {
  // No cache: start without one.
}
const { processMain } = await import('../dist/cli/process.js');
await processMain();
