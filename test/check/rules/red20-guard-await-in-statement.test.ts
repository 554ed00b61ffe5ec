import { lines, ruleTester } from '../rule-tester.js';

/**
 * Red team, session 20 ("no false green"): an async function's guard counts on a call that is not
 * awaited (`main().catch(..)`) when no `await` comes before it; guard-runs.ts `awaitsBefore` reads
 * the statements before the guard's, but not the guard's own statement, so an `await` earlier in
 * that statement (`log(await fs.connect(), protectMcpServer(fs))`, `const x = [await a(),
 * protectMcpServer(fs)]`) is not seen: the guard runs after the caller has gone on, as it would
 * after an `await` on the line before (which is a finding).
 */
const SDK = "import { Agent, MCPServerStdio } from '@openai/agents';";
const GEN = "import { protectMcpServer } from './ctrlrun.generated.js';";
const FS = "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });";
const AGENT = "export const a = new Agent({ name: 'a', mcpServers: [fs] });";

ruleTester('mcp-server-unguarded', {
  valid: [
    {
      name: 'an await that holds the guard runs the guard first (main not awaited)',
      code: lines(
        SDK,
        GEN,
        FS,
        AGENT,
        'declare function register(x: unknown): Promise<void>;',
        'async function main() {',
        '  await register(protectMcpServer(fs));',
        '}',
        'main().catch(console.error);',
      ),
    },
  ],
  invalid: [
    {
      name: 'an await on the line before the guard (control: a finding before)',
      code: lines(SDK, GEN, FS, AGENT, 'async function main() {', '  await fs.connect();', '  protectMcpServer(fs);', '}', 'main().catch(console.error);'),
      errors: [{ line: 4, column: 54 }],
    },
    {
      name: 'an await earlier in the guard’s own statement',
      code: lines(
        SDK,
        GEN,
        FS,
        AGENT,
        'async function main() {',
        '  console.log(await fs.connect(), protectMcpServer(fs));',
        '}',
        'main().catch(console.error);',
      ),
      errors: [{ line: 4, column: 54 }],
    },
    {
      name: 'an await in the declaration the guard initializes',
      code: lines(
        SDK,
        GEN,
        FS,
        AGENT,
        'async function main() {',
        '  const both = [await fs.connect(), protectMcpServer(fs)];',
        '  console.log(both);',
        '}',
        'void main();',
      ),
      errors: [{ line: 4, column: 54 }],
    },
  ],
});
