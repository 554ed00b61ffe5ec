import type { Finding, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';

export const hostedMcpSdkRunMeta: RuleMeta = {
  id: 'hosted-mcp-sdk-run',
  severity: 'error',
  short: "The SDK's run() drives an agent holding a protectHostedMcp tool: its approvals are neither filed nor checked.",
  full: "A hosted MCP call is gated only by its approval request, and the SDK asks no tool's `needsApproval` about it: the one hook it calls there (`onApproval`) must answer at once. So `protectHostedMcp` is enforced by `run` from ctrlrun-gen/runtime (or `control.run()`): it answers each request as the policy says, files what needs a person, and rewrites an `approve: true` the store never recorded into a refusal before the model sees it. Under the SDK's own `run()` or `runner.run()` none of that happens: `approvals list` and the inbox do not show the call, and a bare `state.approve(...)` sends the yes to OpenAI. Reported for runs whose agent this file shows holding a `protectHostedMcp(...)` tool (its other tools need not all be seen), resumed runs too; an agent built elsewhere is not followed.",
  help: "Drive the agent with `run` from ctrlrun-gen/runtime (same arguments as the SDK's `run`), or `control.run(agent, input, options)`. With a stream, or where the SDK's run must stay, call `control.request(result.state)` after each paused run and answer with `control.approve`/`reject`/`resolve`, and suppress this finding with the reason.",
};

/** `hosted-mcp-sdk-run`: the SDK's run() or runner.run() of an agent this file shows holding a `protectHostedMcp` tool. */
export function hostedMcpSdkRunRule(files: ScannedFile[]): Finding[] {
  return files.flatMap(({ scan }) =>
    (scan.runCalls ?? [])
      .filter((run) => run.via !== 'ctrlrun-run' && run.reach?.hostedMcp === true)
      .map((run) => {
        const what = run.via === 'runner' ? 'runner.run()' : "the SDK's run()";
        const agent = run.agent !== undefined ? `\`${run.agent}\`` : 'an agent';
        return findingOf(
          hostedMcpSdkRunMeta,
          scan.file,
          run.callee,
          `${what} drives ${agent}, which holds a protectHostedMcp tool: the SDK files none of its approval requests (approvals list and the inbox will not show them) and does not check a yes against the store (a bare state.approve reaches OpenAI).`,
          `Use \`run\` from ctrlrun-gen/runtime here (same arguments), or \`control.run(${run.agent ?? 'agent'}, input, options)\`.`,
        );
      }),
  );
}
