#!/usr/bin/env node
import { processMain } from '../dist/cli/process.js';

await processMain();
