#!/usr/bin/env node
import module from 'node:module';
import v8 from 'node:v8';

// V8's young generation grows from 1 MB to 16 MB a half when much of it survives collections, and
// keeps that memory for the life of the process. scion's large reads (a tree listing, a scan of
// every blob) made it grow although little of what they allocate lives on: held at its start size,
// a whole-tree replace on babel/babel peaked at ~197 MB instead of ~240 MB, in about the same time.
// V8 reads the flag each time it decides whether to grow, so setting it here, first, is enough.
// Every V8 of the Node versions scion supports (20 on) knows the flag; one that did not would not
// throw but print "unrecognized flag" and go on with its default heap.
v8.setFlagsFromString('--semi-space-growth-factor=1');

// Node 22.8 and later keep a compile cache of scion's bundle between runs (module.enableCompileCache:
// start-up without compiling it again), in the system's temp folder or the folder NODE_COMPILE_CACHE
// names. Node 22.1 to 22.7 have the cache but not this call: there NODE_COMPILE_CACHE=<folder> set by
// the user turns it on. Node 20 has no cache and starts as before. The cache only saves time, so
// whatever stands in its way is silent.
try {
  module.enableCompileCache?.();
} catch {
  // No cache: start without one.
}
const { processMain } = await import('../dist/cli/process.js');
await processMain();
