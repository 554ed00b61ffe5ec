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
