import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agent, RunResult, RunState } from '@openai/agents';

/** What the demo needs from the compiled sample: its agent and the operator's control. */
export interface Sample {
  agent: Agent<any, any>;
  control: {
    request(state: RunState<any, any>): Promise<unknown>;
    resolve(state: RunState<any, any>): Promise<unknown[]>;
    store: { listReceipts(): Promise<Array<{ call_id: string | null; result: string }>> };
  };
  /** The generated module (its MCP door: protectMcpTools). */
  generated: { protectMcpTools: (servers: any[]) => Promise<any[]> };
  sdk: typeof import('@openai/agents');
  testing: typeof import('@openai/agents/testing');
  runtime: typeof import('../runtime/index.js');
}

/**
 * Imports the compiled sample from `build/`, and the SDK and this package's runtime by their
 * package names. The workspace's node_modules link to these very packages (see `makeWorkspace`),
 * and Node resolves links to their real paths, so the sample and the demo share one instance of
 * each module and every `instanceof` agrees. (`ctrlrun-gen/runtime` is a self-reference: the built
 * runtime, also when this file runs from source in tests.)
 */
export async function loadSample(workspace: string): Promise<Sample> {
  const build = path.join(workspace, 'build');
  const from = (rel: string) => import(pathToFileURL(path.join(build, rel)).href);
  const [agentModule, controlModule, generated, sdk, testing, runtime] = await Promise.all([
    from('agent.js'),
    from('ctrlrun.control.js'),
    from('ctrlrun.generated.js'),
    import(import.meta.resolve('@openai/agents')),
    import(import.meta.resolve('@openai/agents/testing')),
    import(import.meta.resolve('ctrlrun-gen/runtime')),
  ]);
  return { agent: agentModule.refundDesk, control: controlModule.default, generated, sdk, testing, runtime };
}

/** The customer the runs act for, and the second person who approves. */
export const REQUESTER = 'alice@refund-desk.example';
export const APPROVER = 'bob@payments.example';

/** One turn of the scripted model: call `refund` with these arguments, then say `reply`. */
export function scriptedRefund(sample: Sample, callId: string, args: { payment_id: string; amount: number }, reply: string) {
  const { ScriptedModel, functionCall, assistantMessage } = sample.testing;
  return new ScriptedModel([[functionCall('refund', args, { callId })], [assistantMessage(reply)]]);
}

/** The text the tool sent back to the model for `callId` in a finished run. */
export function toolOutputFor(result: RunResult<any, any>, callId: string): string | undefined {
  for (const item of result.history) {
    const raw = item as { type?: string; callId?: string; output?: unknown };
    if (raw.type === 'function_call_result' && raw.callId === callId) {
      const output = raw.output as { type?: string; text?: string } | Array<{ text?: string }> | string;
      // an MCP tool's answer arrives as a list of content items
      if (Array.isArray(output)) return output.map((o) => o?.text ?? '').join('');
      return typeof output === 'string' ? output : output?.text;
    }
  }
  return undefined;
}

/** Counts the receipts of one call with a given result (e.g. how many times the body ran). */
export async function countReceipts(sample: Sample, callId: string, result: string): Promise<number> {
  const receipts = await sample.control.store.listReceipts();
  return receipts.filter((r) => r.call_id === callId && r.result === result).length;
}

/**
 * The MCP scene's agent: the support server's tools through the generated module's
 * `protectMcpTools` (each a protected tool that can pause for a person). Close the client after.
 */
export async function supportDesk(sample: Sample, url: string, model: unknown) {
  const client = new sample.sdk.MCPServerStreamableHttp({ name: 'support', url, cacheToolsList: true });
  await client.connect();
  const tools = await sample.generated.protectMcpTools([client]);
  const agent = new sample.sdk.Agent({ name: 'Support desk', instructions: 'You give goodwill credits.', model: model as never, tools });
  return { agent, close: () => client.close() };
}
