import { lines, ruleTester } from '../rule-tester.js';

/**
 * Red team, session 20 ("no false green"), JavaScript only (TypeScript refuses both shapes): a setup
 * function is crossed when its name is called as a statement (guard-runs.ts `callSiteOf`), but in a
 * .js file the name may be declared again (the last `function setup` wins) or assigned another
 * function before the call, and then the guard's body never runs.
 */
const SDK = "import { Agent, MCPServerStdio } from '@openai/agents';";
const GEN = "import { protectMcpServer } from './ctrlrun.generated.js';";
const FS = "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });";
const AGENT = "export const a = new Agent({ name: 'a', mcpServers: [fs] });";

ruleTester('mcp-server-unguarded', {
  valid: [
    {
      name: 'a setup function called (control: held before)',
      file: 'src/agent.js',
      code: lines(SDK, GEN, FS, 'function setup() { protectMcpServer(fs); }', 'setup();', AGENT),
    },
  ],
  invalid: [
    {
      name: 'a second declaration of the setup function replaces the one that guards',
      file: 'src/agent.js',
      code: lines(SDK, GEN, FS, 'function setup() { protectMcpServer(fs); }', 'function setup() {}', 'setup();', AGENT),
      errors: [{ line: 7, column: 54 }],
    },
    {
      name: 'the setup function assigned another before its call',
      file: 'src/agent.js',
      code: lines(SDK, GEN, FS, 'function setup() { protectMcpServer(fs); }', 'setup = () => {};', 'setup();', AGENT),
      errors: [{ line: 7, column: 54 }],
    },
  ],
});
