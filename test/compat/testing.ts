/**
 * `@openai/agents/testing`'s scripted model, for SDK releases older than that export (before
 * 0.16): the part of its API the runtime tests use (`new ScriptedModel(steps)`, `calls`,
 * `functionCall`, `assistantMessage`), written against the SDK's own `Model` interface, which has
 * not changed since tool guardrails exist. Each step is the output of one model call; a call with
 * no step left fails loudly. `vitest.compat.config.ts` aliases `@openai/agents/testing` here only
 * when the SDK under test has no such export.
 */
import { Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

export type ScriptedModelInput = ModelResponse['output'];

export interface RecordedModelCall {
  index: number;
  streamed: boolean;
  request: ModelRequest;
}

export class ScriptedModel implements Model {
  readonly calls: RecordedModelCall[] = [];
  readonly #steps: ScriptedModelInput[];

  constructor(steps: ScriptedModelInput[]) {
    this.#steps = [...steps];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const index = this.calls.length;
    // A snapshot: the runner goes on mutating its own input list after the call.
    this.calls.push({ index, streamed: false, request: { ...request, input: Array.isArray(request.input) ? structuredClone(request.input) : request.input } });
    const output = this.#steps.shift();
    if (output === undefined) throw new Error(`ScriptedModel: model call ${index} has no scripted step left`);
    return { output, usage: new Usage(), responseId: `resp_scripted_${index}` };
  }

  // biome-ignore lint/correctness/useYield: a generator that throws when first read, as the SDK's Model asks for (streaming is not scripted)
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedModel (compat): streamed runs are not scripted');
  }
}

export function functionCall(name: string, args: Record<string, unknown> | string, options: { callId: string }) {
  return {
    type: 'function_call' as const,
    callId: options.callId,
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
    status: 'completed' as const,
  };
}

export function assistantMessage(text: string) {
  return {
    type: 'message' as const,
    role: 'assistant' as const,
    status: 'completed' as const,
    content: [{ type: 'output_text' as const, text }],
  };
}
