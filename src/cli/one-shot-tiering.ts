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
