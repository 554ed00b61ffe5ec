import { lines, ruleTester } from '../rule-tester.js';

const GEN = "import { protectedTool } from './ctrlrun.generated.js';";

ruleTester('sticky-approval', {
  valid: [
    { name: 'approve without alwaysApprove', code: lines("import { run } from '@openai/agents';", 'state.approve(item);') },
    { name: 'alwaysApprove: false', code: lines("import { run } from '@openai/agents';", 'state.approve(item, { alwaysApprove: false });') },
    { name: 'alwaysApprove: false through a const', code: lines("import { run } from '@openai/agents';", 'const once = { alwaysApprove: false };', 'state.approve(item, once);') },
    {
      name: 'suppressed',
      code: lines("import { run } from '@openai/agents';", '// ctrlrun-ignore sticky-approval -- test harness only', 'state.approve(item, { alwaysApprove: true });'),
    },
  ],
  invalid: [
    {
      name: 'state.approve with alwaysApprove: true',
      code: lines("import { run } from '@openai/agents';", 'result.state.approve(item, { alwaysApprove: true });'),
      errors: [{ line: 2, column: 30 }],
    },
    {
      name: 'alwaysApprove passed through a const options object (issue 14.9)',
      code: lines("import { run } from '@openai/agents';", 'const sticky = { alwaysApprove: true };', 'result.state.approve(item, sticky);'),
      errors: [{ line: 2, column: 18 }],
    },
    {
      name: 'runContext.approveTool with alwaysApprove: true',
      code: lines("import { run } from '@openai/agents';", 'ctx.approveTool(item, {', '  alwaysApprove: true,', '});'),
      errors: [{ line: 3, column: 3 }],
    },
  ],
});

ruleTester('needs-approval-override', {
  valid: [
    { name: 'no needsApproval', code: lines(GEN, "export const r = protectedTool('stripe.refund', { name: 'refund' });") },
    { name: 'needsApproval on an SDK tool is not this rule', code: lines("import { tool } from '@openai/agents';", "export const r = tool({ name: 'refund', needsApproval: true });") },
  ],
  invalid: [
    {
      name: 'needsApproval: true',
      code: lines(GEN, "export const r = protectedTool('stripe.refund', {", "  name: 'refund',", '  needsApproval: true,', '});'),
      errors: [{ line: 4, column: 3 }],
    },
    {
      name: 'needsApproval as a predicate',
      code: lines(GEN, "export const r = protectedTool('stripe.refund', { name: 'refund', needsApproval: async () => false });"),
      errors: [{ line: 2, column: 67 }],
    },
  ],
});

ruleTester('hosted-mcp-unguarded', {
  valid: [
    { name: "requireApproval: 'always'", code: lines("import { hostedMcpTool } from '@openai/agents';", "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval: 'always' });") },
    { name: 'hostedMcpTool of another package', code: lines("import { hostedMcpTool } from './mine.js';", "export const g = hostedMcpTool({ serverLabel: 'git' });") },
  ],
  invalid: [
    {
      name: 'no requireApproval (SDK default: never)',
      code: lines("import { hostedMcpTool } from '@openai/agents';", "export const g = hostedMcpTool({ serverLabel: 'git' });"),
      errors: [{ line: 2, column: 18, mentions: "'never'" }],
    },
    {
      name: "requireApproval: 'never'",
      code: lines("import { hostedMcpTool } from '@openai/agents';", "export const g = hostedMcpTool({ serverLabel: 'git', requireApproval: 'never' });"),
      errors: [{ line: 2, column: 54 }],
    },
    {
      name: 'requireApproval as an object (some tools never asked)',
      code: lines("import * as agents from '@openai/agents';", "export const g = agents.hostedMcpTool({ serverLabel: 'git', requireApproval: { never: { toolNames: ['read'] } } });"),
      errors: [{ line: 2, column: 61 }],
    },
  ],
});

ruleTester('mcp-server-unguarded', {
  valid: [
    { name: 'an Agent with tools only', code: lines("import { Agent } from '@openai/agents';", "export const a = new Agent({ name: 'a', tools: [] });") },
    { name: 'an Agent of another package', code: lines("import { Agent } from 'other';", "export const a = new Agent({ name: 'a', mcpServers: [s] });") },
  ],
  invalid: [
    {
      name: 'new Agent with mcpServers: a warning',
      code: lines("import { Agent } from '@openai/agents';", "export const a = new Agent({ name: 'a', mcpServers: [server] });"),
      errors: [{ line: 2, column: 41, severity: 'warning' }],
    },
    {
      name: 'Agent.create with mcpServers',
      code: lines("import { Agent } from '@openai/agents';", 'export const a = Agent.create({', "  name: 'a',", '  mcpServers: [server],', '});'),
      errors: [{ line: 4, column: 3, severity: 'warning' }],
    },
  ],
});

ruleTester('parse-error', {
  valid: [{ name: 'a file that parses', code: lines("import { tool } from '@openai/agents';", 'export const x = 1;') }],
  invalid: [
    {
      name: 'a syntax error is a finding, and nothing else is reported for the file',
      code: lines("import { tool } from '@openai/agents';", "export const t = tool({ name: 'refund', execute: async () => 'ok' ;", 'export const y = ;'),
      errors: [{ line: 2, column: 67, severity: 'error' }],
    },
  ],
});
