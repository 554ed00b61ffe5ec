// Another OS process for the computer door (test/runtime/computer-tool.test.ts): it opens the shared
// SQLite store, builds the same agent with protectComputerTool on a recording computer, restores the
// saved RunState, applies the recorded answers (control.resolve) and runs once. Imports the BUILT
// runtime (dist/): run `npm run build` first. Prints one JSON line: {"output":…} or {"error":…}.
import { readFileSync } from 'node:fs';
import { Agent, RunState } from '@openai/agents';
import { ScriptedModel, assistantMessage } from '@openai/agents/testing';
import { bindLocalTools, createControl, run } from '../../../dist/runtime/index.js';
import { sqliteStore } from '../../../dist/runtime/sqlite.js';
import { computerPolicy, recordingComputer } from '../../helpers/computer-door.mjs';

const config = JSON.parse(process.argv[2]);
const say = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

const store = sqliteStore({ path: config.db });
try {
  const control = createControl({ store, identity: (rc) => rc.context?.user ?? null });
  const doors = bindLocalTools(control, computerPolicy());
  const tools = [doors.protectComputerTool('host.computer', { computer: recordingComputer(config.root, config.log) })];
  const model = new ScriptedModel([[assistantMessage(config.answer ?? 'done')]]);
  const agent = new Agent({ name: 'desk', model, tools });
  const state = await RunState.fromString(agent, readFileSync(config.state, 'utf8'));
  // resolve: false resumes as the SDK holds the state (no answers applied): the tool's needsApproval claims
  const pending = config.resolve === false ? [] : await control.resolve(state);
  const result = await run(agent, state);
  const input = model.calls[0]?.request.input;
  say({ pid: process.pid, pending: pending.length, output: result.finalOutput, seen: JSON.stringify(input ?? null) });
} catch (error) {
  say({ pid: process.pid, error: error?.name ?? String(error), reason: error?.reason ?? null, message: String(error?.message ?? error) });
} finally {
  await store.close();
}
