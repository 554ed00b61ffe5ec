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
  setFlags('--no-turbofan');
}

/**
 * Keeps V8's young generation at its starting size (1 MB a semi-space) for the rest of a plain
 * codemod (issue 40, item 8). By default it doubles up to 64 MB while the scan parses, and each
 * scavenge then copies more survivors (the trees the scan keeps) through fresh pages: on the SDK's
 * examples the pinned size took the peak RSS from ~212 to ~150 MB and the CPU down by 60-70 ms of
 * ~850 (alternated processes, DECISIONS session 31). V8 reads the growth factor each time it would
 * grow the space; the maximum size it fixes at start-up, so that flag would need a new process.
 */
export function withSmallYoungGeneration(): void {
  setFlags('--semi-space-growth-factor=1');
}

/** Sets V8 flags and names them in the code caches' key: V8 rejects a cache written under other flags. */
function setFlags(flags: string): void {
  v8.setFlagsFromString(flags);
  const slot = globalThis as { [FLAGS_MARK]?: string };
  slot[FLAGS_MARK] = slot[FLAGS_MARK] ? `${slot[FLAGS_MARK]} ${flags}` : flags;
}
