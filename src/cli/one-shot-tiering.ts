import v8 from 'node:v8';
import { FLAGS_MARK } from '../scan/code-cache.js';

/**
 * Leaves V8's top optimizing compiler (TurboFan) off for the rest of the process (issue 40, item 8).
 * A plain codemod is one short process: its code comes from the code cache as bytecode, and what
 * gets hot (the parser, the scan's walks) is optimized again on every run. Counted on the SDK's
 * examples (`--single-threaded --predictable`, where the compilers run on the main thread),
 * TurboFan's jobs were ~1.57 G of 5.65 G instructions; with it off, Maglev compiles more and its
 * code runs ~10% slower, and the process counts 4.64 G (−18%), its CPU (the compilers' threads
 * included) falling alike. A repository many times larger than those examples would win it back;
 * the codemod is run once per change of the code, not kept running. Set before the plain codemod's
 * file is loaded: V8 reads the flag each time it decides to optimize a function, and rejects a code
 * cache written under other flags, so the caches this process reads and writes are its own
 * (code-cache.ts `FLAGS_MARK`).
 */
export function withoutTopTier(): void {
  v8.setFlagsFromString('--no-turbofan');
  (globalThis as { [FLAGS_MARK]?: string })[FLAGS_MARK] = '--no-turbofan';
}

/**
 * A plain check goes further (issue 40, item 8): TurboFan off, and Maglev, V8's middle tier, only for
 * functions called ten times as often as by default (`MAGLEV_INVOCATIONS`). Most of what Maglev
 * compiled in a check ran a few hundred times and never again (the start-up's, the reading's, the
 * parser's rarer paths): on the bench's 3,000 files 299 compile jobs, 80 at this count. CPU at exit
 * fell 12% there and 18% on the SDK's examples, the main thread's time unchanged; Maglev off
 * altogether saved less CPU there and cost the main thread ~30% (DECISIONS, session 31). Its caches
 * are keyed by both flags, so they are not the codemod's (V8 rejects a cache made under other flags).
 */
export function checkTiering(): void {
  const flags = ['--no-turbofan', `--invocation-count-for-maglev=${MAGLEV_INVOCATIONS}`];
  for (const flag of flags) v8.setFlagsFromString(flag);
  (globalThis as { [FLAGS_MARK]?: string })[FLAGS_MARK] = flags.join(' ');
}

/** V8's default is 400. */
export const MAGLEV_INVOCATIONS = 4000;
