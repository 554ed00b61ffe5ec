import type { PartsOf } from '../core/parts.js';

/** On a tool made by the local doors (local-tools.ts): its action and how a raw call item of it is presented to the policy. */
export const LOCAL_ACTION: unique symbol = Symbol.for('ctrlrun.localTool.action');

export interface LocalMark {
  action: string;
  /** The policy's view of a raw `shell_call` / `apply_patch_call` / `computer_call` item of this tool. */
  present: (rawItem: unknown) => unknown;
  /**
   * A call this tool refused and paused so the refusal reaches the model through the SDK's own
   * rejection (the computer tool: its output is a screenshot, no text): the refusal text.
   */
  refusalOf?: (callId: string) => string | undefined;
  /** A call of several parts (a shell call's commands): each decided on its own (core/parts.ts). */
  parts?: PartsOf;
}
