/**
 * The demo's second process: restores a saved run state, applies answers recorded in the store
 * (`control.resolve`), and resumes the run. Prints one JSON line: what happened.
 * Usage (cwd = the demo workspace): node resume-child.js <state-file> <call-id> [<support MCP server url>]
 * With a url it resumes the MCP scene's support desk (its own MCP client to that server).
 */
import { readFileSync } from 'node:fs';
import { countReceipts, loadSample, supportDesk, toolOutputFor } from './agent-runs.js';

const [stateFile, callId, mcpUrl] = process.argv.slice(2);
if (!stateFile || !callId) {
  console.error('usage: resume-child <state-file> <call-id>');
  process.exit(2);
}
const sample = await loadSample(process.cwd());
const { RunState } = sample.sdk;
const { ScriptedModel, assistantMessage } = sample.testing;
const support = mcpUrl ? await supportDesk(sample, mcpUrl, new ScriptedModel([[assistantMessage('The credit went through.')]])) : undefined;
const agent = support?.agent ?? sample.agent.clone({ model: new ScriptedModel([[assistantMessage('The refund went through.')]]) });
const state = await RunState.fromString(agent, readFileSync(stateFile, 'utf8'));
const pending = await sample.control.resolve(state);
try {
  const result = await sample.runtime.run(agent, state);
  const executed = await countReceipts(sample, callId, 'executed');
  console.log(JSON.stringify({ outcome: 'ran', pending: pending.length, toolOutput: toolOutputFor(result, callId), executed }));
} catch (error) {
  const err = sample.runtime.unwrap(error) as Error & { reason?: string };
  const executed = await countReceipts(sample, callId, 'executed');
  console.log(JSON.stringify({ outcome: 'refused', error: err.name, reason: err.reason, message: err.message, executed }));
}
await support?.close();
