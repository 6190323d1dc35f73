#!/usr/bin/env node
// Node 22.1+ keeps a compile cache of scion's modules between runs (start-up without re-parsing);
// Node 20 has no such cache and starts as before.
import module from 'node:module';

module.enableCompileCache?.();
const { processMain } = await import('../dist/cli/process.js');
await processMain();
