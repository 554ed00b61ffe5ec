import { action, lines, ruleTester, testProject } from '../rule-tester.js';

// cases of adoption-doors
{
  const SDK = "import { Agent, getAllMcpTools, hostedMcpTool, mcpToFunctionTool, MCPServerStdio } from '@openai/agents';";

  ruleTester('hosted-mcp-unguarded', {
    valid: [
      {
        name: "a spread before requireApproval: 'always' (the literal wins)",
        code: lines(SDK, "hostedMcpTool({ ...config, serverLabel: 'gh', requireApproval: 'always' });"),
      },
    ],
    invalid: [
      {
        name: "requireApproval: 'always' overridden by a later spread",
        code: lines(SDK, "hostedMcpTool({ serverLabel: 'gh', requireApproval: 'always', ...config });"),
        errors: [{ line: 2, column: 63, mentions: 'can override it' }],
      },
    ],
  });
}

// cases of mcp-and-agent-doors
{
  const SDK = "import { Agent, MCPServerStdio, hostedMcpTool } from '@openai/agents';";

  const GEN = "import { protectAgent, protectAgentTool, protectHostedMcp, protectMcpServer } from './ctrlrun.generated.js';";

  /** The test project plus hosted MCP servers: `git` → git.read (always allow), `ops` → ops.run (allow, approve). */
  function hostedProject() {
    const p = testProject({
      actions: [action('stripe.refund', ['allow', 'approve', 'deny']), action('git.read', ['allow']), action('ops.run', ['allow', 'approve'])],
    });
    const loc = { file: '/repo/ctrlrun.tools.yaml', line: 30, column: 5 };
    p.manifest.tools.push(
      { kind: 'hosted_mcp', serverLabel: 'git', action: 'git.read', loc },
      { kind: 'hosted_mcp', serverLabel: 'ops', action: 'ops.run', loc },
    );
    // ops.run: `allow` only under a condition, then `approve` for the rest
    p.policy.actions['ops.run']!.rules[0]!.when.push({ arg: 'path', op: 'eq', value: 'x' } as never);
    return p;
  }

  ruleTester(
    'hosted-mcp-unguarded',
    {
      valid: [
        { name: "requireApproval: 'always'", code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval: 'always' });") },
        { name: 'protectHostedMcp', code: lines(GEN, "export const g = protectHostedMcp({ serverLabel: 'ops', serverUrl: 'https://x' });") },
        {
          name: 'hostedMcpTool of another package',
          code: lines("import { hostedMcpTool } from './mine.js';", "export const g = hostedMcpTool({ serverLabel: 'git' });"),
        },
        {
          name: 'a never list of a server whose action always allows',
          code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval: { never: { toolNames: ['read_file'] } } });"),
        },
        {
          name: 'a never list held in a const object of the file, of a server whose action always allows',
          code: lines(
            SDK,
            "const requireApproval = { never: { toolNames: ['read_file'] } };",
            "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval });",
          ),
        },
        {
          name: 'an object with only an always list',
          code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'ops', requireApproval: { always: { toolNames: ['deploy'] } } });"),
        },
      ],
      invalid: [
        {
          name: 'no requireApproval (SDK default: never)',
          code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'git' });"),
          errors: [{ line: 2, column: 18, mentions: "'never'" }],
        },
        {
          name: "requireApproval: 'never'",
          code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval: 'never' });"),
          errors: [{ line: 2, column: 54, mentions: 'protectHostedMcp' }],
        },
        {
          name: 'requireApproval held in a variable',
          code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval: mode });"),
          errors: [{ line: 2, column: 54 }],
        },
        {
          name: 'a never list holding a tool the action does not always allow (one finding per tool)',
          code: lines(
            "import * as agents from '@openai/agents';",
            "export const g = agents.hostedMcpTool({ serverLabel: 'ops', requireApproval: { never: { toolNames: ['status', 'deploy'] } } });",
          ),
          errors: [
            { line: 2, column: 101, mentions: 'the policy does not always allow ops.run' },
            { line: 2, column: 111, mentions: "'deploy'" },
          ],
        },
        {
          name: 'a never list held in a const object: its tools are read',
          code: lines(
            SDK,
            "const approval = { never: { toolNames: ['deploy'] } };",
            "export const g = hostedMcpTool({ serverLabel: 'ops', requireApproval: approval });",
          ),
          errors: [{ line: 2, column: 41, mentions: "'deploy'" }],
        },
        {
          name: 'a never list of a server the manifest does not map',
          code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'other', requireApproval: { never: ['status'] } });"),
          errors: [{ line: 2, column: 83, mentions: 'maps no action to server' }],
        },
        {
          name: 'a never list check cannot read',
          code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval: { never: { toolNames: names } } });"),
          errors: [{ line: 2, column: 80, mentions: 'cannot read' }],
        },
        {
          name: "a hand-written onApproval, even with 'always'",
          code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval: 'always', onApproval: async () => ({ approve: true }) });"),
          errors: [{ line: 2, column: 81, mentions: 'cannot wait for a person' }],
        },
      ],
    },
    hostedProject(),
  );

  ruleTester(
    'hosted-mcp-unguarded',
    {
      valid: [],
      invalid: [
        {
          name: 'with no policy, a never list is reported and the finding says so',
          code: lines(SDK, "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval: { never: { toolNames: ['read_file'] } } });"),
          errors: [{ line: 2, column: 94, mentions: 'check has no policy' }],
        },
      ],
    },
    null,
  );
}
