import { lines, ruleTester } from '../rule-tester.js';

ruleTester('sticky-approval', {
  valid: [
    { name: 'approve without alwaysApprove', code: lines("import { run } from '@openai/agents';", 'state.approve(item);') },
    { name: 'alwaysApprove: false', code: lines("import { run } from '@openai/agents';", 'state.approve(item, { alwaysApprove: false });') },
    {
      name: 'alwaysApprove: false through a const',
      code: lines("import { run } from '@openai/agents';", 'const once = { alwaysApprove: false };', 'state.approve(item, once);'),
    },
    {
      name: 'suppressed',
      code: lines(
        "import { run } from '@openai/agents';",
        '// ctrlrun-ignore sticky-approval -- test harness only',
        'state.approve(item, { alwaysApprove: true });',
      ),
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
