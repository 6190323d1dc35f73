// @ast-grep/napi, loaded on first use: a run without structural steps never pays for the native module.
// Everything else in this folder takes the loaded module as an argument (tests and workers pass their own).
import type * as NapiModule from '@ast-grep/napi';

export type Napi = typeof NapiModule;
export type SgNode = NapiModule.SgNode;
export type SgRoot = NapiModule.SgRoot;
export type NapiConfig = NapiModule.NapiConfig;

let loading: Promise<Napi> | undefined;

export function loadNapi(): Promise<Napi> {
  loading ??= import('@ast-grep/napi').then((m) => {
    // A CommonJS module: named exports when Node detects them, else everything under `default`.
    const mod = m as Napi & { default?: Napi };
    return typeof mod.parse === 'function' ? mod : (mod.default as Napi);
  });
  return loading;
}
