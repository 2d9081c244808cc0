import { setFlagsFromString } from 'node:v8';

/**
 * V8 runs PGlite's WebAssembly with its baseline compiler (Liftoff) first, and recompiles a function
 * with its optimising compiler (TurboFan), on background threads, once the function has run through
 * a budget of executed code (V8's default: 1,800,000). PostgreSQL's start-up, catalog and DDL code
 * passes that budget while a store opens and is seldom run again: on the 2-core machine those
 * compiles took a core from the start itself, and the event store's schema statements took 0.5-0.6 s
 * instead of 0.2. Ten times the budget leaves a start to the
 * baseline code; the statements a running store repeats pass it within moments of load and are
 * optimised as before.
 */
export const PGLITE_WASM_TIERING_BUDGET = 18_000_000;

/**
 * Sets V8's budget for the whole process (there is no per-module setting); V8 reads it when a
 * WebAssembly module is instantiated, so this runs before PGlite is created. The process's other
 * WebAssembly (undici's HTTP parser) is optimised a little later for it too.
 */
export function raiseWasmTieringBudget(): void {
  setFlagsFromString(`--wasm-tiering-budget=${PGLITE_WASM_TIERING_BUDGET}`);
}
