import v8 from 'node:v8';
import { FLAGS_MARK } from '../scan/code-cache.js';

/**
 * A plain codemod or check is one short process (issue 40, item 8): its code comes from the code
 * cache as bytecode, and what gets hot (the parser, the scan's walks) is optimized again on every
 * run. So TurboFan, V8's top tier, is off: counted on the SDK's examples, its jobs were ~1.57 G of
 * 5.65 G instructions, and with it off the process counts 4.64 G (−18%), its CPU (the compilers'
 * threads included) falling alike (session 30). And Maglev, the middle tier, compiles only functions
 * called ten times as often as by default (`MAGLEV_INVOCATIONS`): most of what it compiled ran a few
 * hundred times and never again (the start-up's, the reading's, the parser's rarer paths). On the
 * bench's 3,000 files a check made 299 Maglev jobs, 80 at this count; CPU at exit fell 12% there and
 * 18% on the SDK's examples for a check, and 12% for the codemod's dry run there; Maglev off
 * altogether cost the main thread ~30% (DECISIONS, session 31). Node 22 runs without Maglev by
 * default; there TurboFan off alone still cut the codemod's CPU by a third. Set before the command's
 * file is loaded: V8 reads the flags each time it decides to optimize a function, and rejects a code
 * cache written under other flags, so the caches these processes read and write are their own
 * (code-cache.ts `FLAGS_MARK`), shared by the two commands.
 */
export function oneShotTiering(): void {
  const flags = ['--no-turbofan', `--invocation-count-for-maglev=${MAGLEV_INVOCATIONS}`];
  for (const flag of flags) v8.setFlagsFromString(flag);
  (globalThis as { [FLAGS_MARK]?: string })[FLAGS_MARK] = flags.join(' ');
}

/** V8's default is 400. */
export const MAGLEV_INVOCATIONS = 4000;
