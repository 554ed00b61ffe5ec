import { lines, ruleTester, testProject } from '../rule-tester.js';

// A guarded server whose mapped calls are refused at run time (split from mcp-server-unguarded, issue 35: one rule, one severity).

const SDK = "import { Agent, MCPServerStdio } from '@openai/agents';";

const GEN = "import { protectAgent, protectMcpServer } from './ctrlrun.generated.js';";

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

ruleTester(
  'mcp-calls-refused',
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
      {
        name: 'an unguarded server is mcp-server-unguarded, not this',
        code: lines(SDK, "export const a = new Agent({ name: 'a', mcpServers: [new MCPServerStdio({ name: 'github', fullCommand: 'x' })] });"),
      },
      {
        name: 'the tools through protectMcpTools, which can pause (no server in mcpServers)',
        code: lines(
          SDK,
          "import { protectMcpTools } from './ctrlrun.generated.js';",
          "const github = new MCPServerStdio({ name: 'github', fullCommand: 'x' });",
          "export const a = new Agent({ name: 'a', tools: await protectMcpTools([github]) });",
        ),
      },
      {
        name: 'observe mode: nothing is refused',
        project: (() => {
          const p = mcpProject();
          p.policy.mode = 'observe';
          return p;
        })(),
        code: lines(
          SDK,
          GEN,
          "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'x' }))] });",
        ),
      },
    ],
    invalid: [
      {
        name: 'a server of an agent passed to protectAgent (guarded in place), whose tool can need approval',
        code: lines(
          SDK,
          GEN,
          "const github = new MCPServerStdio({ name: 'github', fullCommand: 'x' });",
          "export const a = protectAgent(new Agent({ name: 'a', mcpServers: [github] }));",
        ),
        errors: [{ line: 4, column: 67, mentions: 'approval_unavailable' }],
      },
      {
        name: 'a guarded server with a tool whose action can need approval: a warning (such calls cannot pause there)',
        code: lines(
          SDK,
          GEN,
          "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'x' }))] });",
        ),
        errors: [{ line: 3, column: 54, mentions: 'protectMcpTools' }],
      },
    ],
  },
  mcpProject(),
);

ruleTester(
  'mcp-calls-refused',
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
        errors: [{ line: 4, column: 54, mentions: 'fetch: upstreamFetch("payouts")' }],
      },
      {
        name: 'another fetch, through a variable',
        code: lines(
          HTTP,
          "const payouts = new MCPServerStreamableHttp({ name: 'payouts', url: 'https://p/mcp', fetch: myFetch() });",
          'const guarded = protectMcpServer(payouts);',
          "export const a = new Agent({ name: 'a', mcpServers: [guarded] });",
        ),
        errors: [{ line: 6, column: 54, mentions: 'upstream_unverified' }],
      },
      {
        name: 'an action pinned by a certificate file (`tls_cert_file`) is pinned too',
        project: (() => {
          const p = pinnedProject();
          p.policy.actions['stripe.charge.read']!.upstream = { tlsCertPems: ['-----BEGIN CERTIFICATE-----\nMA==\n-----END CERTIFICATE-----\n'] };
          return p;
        })(),
        code: lines(
          HTTP,
          "export const a = new Agent({ name: 'a', mcpServers: [protectMcpServer(new MCPServerStreamableHttp({ name: 'payouts', url: 'https://p/mcp' }))] });",
        ),
        errors: [{ line: 4, column: 54, mentions: 'upstream_unverified' }],
      },
    ],
  },
  pinnedProject(),
);
