// The policy bench's input sizes, shared by policy.bench.mjs (its labels, its SQLite log) and
// policy-side.mjs (the inputs each side builds in its own process).
import { sized } from './size.mjs';

/** Test cases of the `test` figure. */
export const CASES = sized(10_000, 200);
/** Recorded calls of the `replay` figures. */
export const CALLS = sized(100_000, 1000);
/** The least time a side warms up before its clock starts (ms). */
export const WARM_MS = sized(500, 0);
/** Actions in each policy of the `diff` figure's many-actions pair (the side names say `200`). */
export const ACTIONS = sized(200, 20);
