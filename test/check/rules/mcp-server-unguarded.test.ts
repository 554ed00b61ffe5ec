import { lines, ruleTester, testProject } from '../rule-tester.js';

const SDK = "import { Agent, MCPServerStdio, hostedMcpTool } from '@openai/agents';";

const GEN = "import { protectAgent, protectAgentTool, protectHostedMcp, protectMcpServer } from './ctrlrun.generated.js';";

const HTTP = lines(
  "import { Agent, MCPServerStreamableHttp } from '@openai/agents';",
  "import { protectMcpServer, upstreamFetch } from './ctrlrun.generated.js';",
);

/** The test project plus an MCP tool whose action (always allowed) pins a TLS certificate: payouts/pay → stripe.charge.read. */
function pinnedProject() {
  const p = testProject();
  p.manifest.tools.push({
    kind: 'mcp',
    server: 'payouts',
    tool: 'pay',
    action: 'stripe.charge.read',
    loc: { file: '/repo/ctrlrun.tools.yaml', line: 30, column: 5 },
  });
  p.policy.actions['stripe.charge.read']!.upstream = { tlsCertSha256: [`sha256:${'a'.repeat(64)}`] };
  return p;
}

/** The test project plus MCP tools: fs/read_file → stripe.charge.read (allow); github/create_issue → stripe.refund (allow, approve, deny). */
function mcpProject() {
  const p = testProject();
  const loc = { file: '/repo/ctrlrun.tools.yaml', line: 30, column: 5 };
  p.manifest.tools.push(
    { kind: 'mcp', server: 'fs', tool: 'read_file', action: 'stripe.charge.read', loc },
    { kind: 'mcp', server: 'github', tool: 'create_issue', action: 'stripe.refund', loc },
  );
  return p;
}

ruleTester('mcp-server-unguarded', {
  valid: [
    { name: 'an Agent with tools only', code: lines(SDK, "export const a = new Agent({ name: 'a', tools: [] });") },
    { name: 'an Agent of another package', code: lines("import { Agent } from 'other';", "export const a = new Agent({ name: 'a', mcpServers: [s] });") },
    {
      name: 'protectMcpServer inline',
      code: lines(SDK, GEN, "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }))] });"),
    },
    {
      name: 'a variable made by protectMcpServer',
      code: lines(
        SDK,
        GEN,
        "const fs = protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }));",
        "export const a = new Agent({ name: 'a', mcpServers: [fs] });",
      ),
    },
    {
      name: 'a server guarded in place later in the file, through a const array',
      code: lines(
        SDK,
        GEN,
        "const fs = new MCPServerStdio({ name: 'fs', fullCommand: 'x' });",
        'const servers = [fs];',
        "export const a = new Agent({ name: 'a', mcpServers: servers });",
        'protectMcpServer(fs);',
      ),
    },
    { name: 'the agent passed to protectAgent', code: lines(SDK, GEN, "export const a = protectAgent(new Agent({ name: 'a', mcpServers: [server] }));") },
    {
      name: 'the agent variable passed to protectAgent',
      code: lines(SDK, GEN, "const a = new Agent({ name: 'a', mcpServers: [server] });", 'a.mcpServers = [other];', 'protectAgent(a);'),
    },
    {
      name: 'the generated module through a namespace',
      code: lines(
        SDK,
        "import * as gen from './ctrlrun.generated.js';",
        "export const a = new Agent({ name: 'a', mcpServers: [gen.protectMcpServer(server)] });",
      ),
    },
    {
      name: 'errorFunction: null',
      code: lines(
        SDK,
        GEN,
        "const fs = protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x', errorFunction: null }));",
        "export const a = new Agent({ name: 'a', mcpServers: [fs], mcpConfig: { errorFunction: null } });",
      ),
    },
  ],
  invalid: [
    {
      name: 'an unguarded server: an error naming the server and the fix',
      code: lines(
        SDK,
        "const github = new MCPServerStdio({ name: 'github', fullCommand: 'x' });",
        "export const a = new Agent({ name: 'a', mcpServers: [github] });",
      ),
      errors: [{ line: 3, column: 54, severity: 'error', mentions: 'protectMcpServer(github)' }],
    },
    {
      name: 'only the unguarded one of two',
      code: lines(
        SDK,
        GEN,
        "const fs = protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }));",
        "export const a = new Agent({ name: 'a', mcpServers: [fs, new MCPServerStdio({ name: 'gh', fullCommand: 'y' })] });",
      ),
      errors: [{ line: 4, column: 58, mentions: 'server: gh' }],
    },
    {
      name: 'Agent.create, a server check cannot follow',
      code: lines(SDK, 'export const a = Agent.create({', "  name: 'a',", '  mcpServers: await loadServers(),', '});'),
      errors: [{ line: 4, column: 15, mentions: 'cannot follow' }],
    },
    {
      name: 'a clone given other servers',
      code: lines(SDK, GEN, "const a = protectAgent(new Agent({ name: 'a' }));", 'export const b = a.clone({ mcpServers: [server] });'),
      errors: [{ line: 4, column: 41, mentions: "a clone's `mcpServers`" }],
    },
    {
      name: 'a later assignment and a push',
      code: lines(
        SDK,
        GEN,
        "const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(s)] });",
        'a.mcpServers = [t];',
        'a.mcpServers.push(u, protectMcpServer(v));',
      ),
      errors: [
        { line: 4, column: 17, mentions: 'assigned later' },
        { line: 5, column: 19, mentions: 'pushed later' },
      ],
    },
    {
      name: "a server's errorFunction and mcpConfig.errorFunction",
      code: lines(
        SDK,
        GEN,
        "const fs = protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x', errorFunction: () => 'failed' }));",
        "export const a = new Agent({ name: 'a', mcpServers: [fs], mcpConfig: { errorFunction: ({ error }) => String(error) } });",
      ),
      errors: [
        { line: 3, column: 80, mentions: "server's own `errorFunction`" },
        { line: 4, column: 72, mentions: 'mcpConfig.errorFunction' },
      ],
    },
  ],
});

ruleTester(
  'mcp-server-unguarded',
  {
    valid: [
      {
        name: 'a guarded server whose mapped tools are allowed or denied',
        code: lines(
          SDK,
          GEN,
          "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(new MCPServerStdio({ name: 'fs', fullCommand: 'x' }))] });",
        ),
      },
    ],
    invalid: [
      {
        name: 'a guarded server with a tool whose action can need approval: a warning (such calls cannot pause there)',
        code: lines(
          SDK,
          GEN,
          "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'x' }))] });",
        ),
        errors: [{ line: 3, column: 54, severity: 'warning', mentions: 'protectMcpTools' }],
      },
    ],
  },
  mcpProject(),
);

ruleTester(
  'mcp-server-unguarded',
  {
    valid: [
      {
        name: "a guarded server whose pinned action's server is built with the generated module's upstreamFetch",
        code: lines(
          HTTP,
          "const payouts = new MCPServerStreamableHttp({ name: 'payouts', url: 'https://p/mcp', fetch: upstreamFetch('payouts') });",
          "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(payouts)] });",
        ),
      },
      {
        name: 'a server whose options check cannot read (a spread) is not guessed at',
        code: lines(
          HTTP,
          'const base = {};',
          "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(new MCPServerStreamableHttp({ ...base, name: 'payouts', url: 'https://p/mcp' }))] });",
        ),
      },
    ],
    invalid: [
      {
        name: 'a guarded server of a pinned action without upstreamFetch: a warning (every call is refused upstream_unverified)',
        code: lines(
          HTTP,
          "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(new MCPServerStreamableHttp({ name: 'payouts', url: 'https://p/mcp' }))] });",
        ),
        errors: [{ line: 4, column: 54, severity: 'warning', mentions: 'fetch: upstreamFetch("payouts")' }],
      },
      {
        name: 'another fetch, through a variable',
        code: lines(
          HTTP,
          "const payouts = new MCPServerStreamableHttp({ name: 'payouts', url: 'https://p/mcp', fetch: myFetch() });",
          'const guarded = protectMcpServer(payouts);',
          "export const a = new Agent({ name: 'a', mcpServers: [guarded] });",
        ),
        errors: [{ line: 6, column: 54, severity: 'warning', mentions: 'upstream_unverified' }],
      },
    ],
  },
  pinnedProject(),
);
