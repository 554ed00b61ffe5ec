// Another OS process for the MCP door (test/runtime/mcp.test.ts): it opens the shared SQLite store,
// connects its own MCP client (stdio: it starts its own server process; http: the test's server on
// 127.0.0.1), builds the agent with protectMcpTools, restores the saved RunState, records the
// answers it is told to (control.approve), applies them (control.resolve) or forces the SDK's own
// approval (state.approve), and runs once. Imports the BUILT runtime (dist/): run `npm run build`
// first. Prints one JSON line: {"output":…} or {"error":…}.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Agent, MCPServerStdio, MCPServerStreamableHttp, RunState } from '@openai/agents';
import { ScriptedModel, assistantMessage } from '@openai/agents/testing';
import { bindMcp, createControl, run } from '../../../dist/runtime/index.js';
import { sqliteStore } from '../../../dist/runtime/sqlite.js';
import { mcpPolicy } from '../../helpers/mcp-policy.mjs';

const config = JSON.parse(process.argv[2]);
const say = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const serverScript = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'helpers', 'mcp-issues-server.mjs');

const store = sqliteStore({ path: config.db });
const server =
  config.transport === 'http'
    ? new MCPServerStreamableHttp({
        name: 'issues',
        url: config.url,
        cacheToolsList: true,
        requestInit: { headers: { 'x-ctrlrun-client-pid': String(process.pid) } },
      })
    : new MCPServerStdio({
        name: 'issues',
        command: process.execPath,
        args: [serverScript],
        env: { ...process.env, CTRLRUN_TEST_MCP_LOG: config.log },
        cacheToolsList: true,
      });
try {
  await server.connect();
  const control = createControl({ store, identity: (rc) => rc.context?.user ?? null });
  const doors = bindMcp(control, mcpPolicy());
  const tools = await doors.protectMcpTools([server], { includeServerInToolNames: config.prefixed === true });
  const model = new ScriptedModel([[assistantMessage(config.answer ?? 'done')]]);
  const agent = new Agent({ name: 'triage', model, tools });
  const state = await RunState.fromString(agent, readFileSync(config.state, 'utf8'));
  const refused = [];
  for (const approver of config.approve ?? []) {
    try {
      await control.approve(state, state.getInterruptions()[0], { approver });
    } catch (error) {
      refused.push(error?.reason ?? String(error));
    }
  }
  if (config.force) state.approve(state.getInterruptions()[0]);
  const pending = config.resolve === false || config.force ? [] : await control.resolve(state);
  const result = await run(agent, state);
  say({ pid: process.pid, refused, pending: pending.length, output: result.finalOutput, seen: JSON.stringify(model.calls[0]?.request.input ?? null) });
} catch (error) {
  say({ pid: process.pid, error: error?.name ?? String(error), reason: error?.reason ?? null, message: String(error?.message ?? error) });
} finally {
  await server.close();
  await store.close();
}
