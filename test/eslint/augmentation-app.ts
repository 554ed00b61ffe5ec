/**
 * An app whose helper (helper.ts) answers `p.state.approve(step)` on a `Pending` (types.ts) that gets
 * its `state` from another file's `declare module './types.js'` augmentation (aug.ts), whose
 * `RunState` comes from state.ts: the SDK's (`SDK_STATE`) or the app's own (`OWN_STATE`). Shared by
 * the ESLint tests that change one of those files during a session.
 */
export const HELPER = [
  "import { protectedTool } from './ctrlrun.generated.js';",
  "import type { Pending } from './types.js';",
  'export function go(p: Pending, step: unknown) { p.state.approve(step); }',
  '',
].join('\n');
export const TYPES = 'export interface Pending { id: string }\n';
export const AUG = "import type { RunState } from './state.js';\ndeclare module './types.js' { interface Pending { state: RunState<any, any> } }\n";
export const NO_AUG = "import type { RunState } from './state.js';\nexport type Kept = RunState<any, any>;\n";
export const OWN_STATE = 'export interface RunState<A, B> { approve(step: unknown): void; a?: A; b?: B }\n';
export const SDK_STATE = "export type { RunState } from '@openai/agents';\n";
