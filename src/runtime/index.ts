/** `ctrlrun-gen/runtime`: what generated modules and user code import at run time. */
export type * from './types.js';
export { canonicalJson, canonicalHash } from './canonical.js';
