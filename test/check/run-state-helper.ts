import { lines } from './rule-tester.js';

/*
 * The answering helper of the own-RunState tests (own-run-state-module.test.ts,
 * own-run-state-sdk-under-another-form.test.ts): a module with protected tools whose helper
 * approves through a parameter typed `RunState`, imported from the module under test.
 */

const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const HELPER = 'export function go(state: RunState, step: unknown) { state.approve(step); }';

/** The helper module, its `RunState` imported from `from`. */
export const helper = (from: string): string => lines(GEN, `import type { RunState } from '${from}';`, HELPER);

/** The helper module with a `RunState` of its own, declared by `declaration`. */
export const helperDeclaring = (declaration: string): string => lines(GEN, declaration, HELPER);

/** Where sdk-approval reports the helper's answer. */
export const AT = { line: 3, column: HELPER.indexOf('state.approve') + 1 };
