import type { ControlInternals } from '../internals.js';
import type { CompiledAction, CompiledPolicy, PausedDoor } from '../types.js';
import type { ArgumentsStage } from './arguments.js';
import type { StillRunningHolds } from './body.js';
import type { DecisionScope } from './decision.js';
import type { PrincipalStage } from './principal.js';
import type { UpstreamCheck, WriteFailed, WriteReceipt } from './types.js';

/**
 * Everything the stages of one action's core share, made once per protected tool
 * (`createActionCore`): the control (its store, clock, identity), the policy, and the stages that
 * keep per-tool state (the guardrail's principals, the still-running holds). Passed explicitly to
 * each stage; nothing else is shared.
 */
export interface CoreScope {
  readonly internals: ControlInternals;
  readonly policy: CompiledPolicy;
  readonly action: string;
  readonly compiled: CompiledAction | undefined;
  readonly enforce: boolean;
  readonly decision: DecisionScope;
  readonly args: ArgumentsStage;
  readonly principals: PrincipalStage;
  readonly holds: StillRunningHolds;
  /** The door's check of the upstream (the HTTP MCP doors); none: a pinned action cannot run here. */
  readonly upstream: UpstreamCheck | undefined;
  /** A structured tool (outputSchema) cannot answer with refusal text: refusals throw `ActionDenied`. */
  readonly refusalsAsErrors: boolean;
  /** The body's output is the model's text (a function tool): a soft halt found at the body's authorization answers with its refusal. */
  readonly textOutput: boolean;
  readonly hasUserErrorFunction: boolean;
  /** The SDK tool name the manifest maps to the action (the first), or null: looked up once, not per call. */
  readonly tool: string | null;
  readonly receipt: WriteReceipt;
  /** A decision receipt's first failed write, retried at the halts' new epoch (core/halt.ts; its `context` the call's run context): made once, not a closure a receipt. */
  readonly haltRetry: WriteFailed;
  /** Whether this door runs an approved edit (its body takes the input the core hands it). */
  readonly edits: boolean;
  /** The door a paused call is filed with (made on the first pause: the tool's schema, where edits run). */
  readonly door: () => PausedDoor;
}
