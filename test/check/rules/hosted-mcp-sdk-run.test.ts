import { lines, ruleTester } from '../rule-tester.js';

// Issue 21 item 5: hosted MCP approvals are filed and checked only by ctrlrun's run; the SDK's run of
// an agent holding a protectHostedMcp tool files none and sends a yes the store never recorded.
const SDK = "import { Agent, Runner, run } from '@openai/agents';";
const GEN = "import { protectHostedMcp, protectedTool } from './ctrlrun.generated.js';";
const HOSTED = "const docs = new Agent({ name: 'docs', tools: [protectHostedMcp({ serverLabel: 'gitmcp', serverUrl: 'https://gitmcp.io/x' })] });";

ruleTester('hosted-mcp-sdk-run', {
  valid: [
    {
      name: "ctrlrun-gen/runtime's run, and control.run",
      code: lines(
        "import { Agent } from '@openai/agents';",
        "import { run } from 'ctrlrun-gen/runtime';",
        GEN,
        HOSTED,
        "const result = await run(docs, 'hi', { context: { user } });",
        "await control.run(docs, 'hi', { context: { user } });",
      ),
    },
    {
      name: "the SDK's run of an agent holding only function tools",
      code: lines(
        SDK,
        GEN,
        "const desk = new Agent({ name: 'desk', tools: [protectedTool('stripe.refund', { name: 'refund' })] });",
        "await run(desk, 'hi', { context: { user } });",
      ),
    },
    {
      name: 'an agent the file does not show holding one (imported)',
      code: lines(SDK, "import { docs } from './agents';", "await run(docs, 'hi', { context: { user } });"),
    },
  ],
  invalid: [
    {
      name: "the SDK's run(), a resume, and runner.run() of an agent holding protectHostedMcp",
      code: lines(
        SDK,
        GEN,
        HOSTED,
        "const result = await run(docs, 'hi', { context: { user } });",
        'await run(docs, result.state);',
        "await new Runner().run(docs, 'hi', { context: { user } });",
      ),
      errors: [
        { line: 4, column: 22, mentions: "the SDK's run() drives `docs`" },
        { line: 5, column: 7, mentions: 'files none of its approval requests' },
        { line: 6, column: 7, mentions: 'runner.run()' },
      ],
    },
    {
      name: 'beside tools the file does not show, and through a handoff',
      code: lines(
        SDK,
        GEN,
        "import { more } from './tools';",
        "const docs = new Agent({ name: 'docs', tools: [protectHostedMcp({ serverLabel: 'gitmcp' }), ...more] });",
        "const front = new Agent({ name: 'front', handoffs: [new Agent({ name: 'd', tools: [protectHostedMcp({ serverLabel: 'gitmcp' })] })] });",
        "await run(docs, 'hi', { context: { user } });",
        "await run(front, 'hi', { context: { user } });",
      ),
      errors: [
        { line: 6, column: 7, mentions: '`docs`' },
        { line: 7, column: 7, mentions: '`front`' },
      ],
    },
  ],
});
