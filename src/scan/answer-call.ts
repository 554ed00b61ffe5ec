import type { SdkApproval } from './types.js';

/** An SDK answer as the app wrote it, for a message: `state.approve(item)`, or `state[verdict](item)` by a computed key. */
export const answerCall = (a: SdkApproval): string => (a.key !== undefined ? `${a.receiver}[${a.key}](${a.item})` : `${a.receiver}.${a.method}(${a.item})`);
