// @ast-grep/napi, loaded on first use: a run without structural steps never pays for the native module.
// Everything else in this folder takes the loaded module as an argument (tests and workers pass their own).
import type * as NapiModule from '@ast-grep/napi';
import { loadOnce } from '../util/load-once.js';

export type Napi = typeof NapiModule;
export type SgNode = NapiModule.SgNode;
export type SgRoot = NapiModule.SgRoot;
export type NapiConfig = NapiModule.NapiConfig;

/** The native module, loaded at the first call (and again after a failed load). */
export const loadNapi: () => Promise<Napi> = loadOnce(() =>
  import('@ast-grep/napi').then((m) => {
    // A CommonJS module: named exports when Node detects them, else everything under `default`.
    const mod = m as Napi & { default?: Napi };
    return typeof mod.parse === 'function' ? mod : (mod.default as Napi);
  }),
);
