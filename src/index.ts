/** The generator's programmatic API (`ctrlrun-gen`). The runtime is `ctrlrun-gen/runtime`. */
export { runCli } from './cli/run.js';
export type { Diagnostic } from './diagnostics.js';
export { UserError } from './diagnostics.js';
export type * from './policy/types.js';
export { VERSION } from './version.js';
