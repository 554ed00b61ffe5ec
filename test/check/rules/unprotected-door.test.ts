import { lines, ruleTester } from '../rule-tester.js';

const GEN = "import { protectApplyPatchTool, protectComputerTool, protectShellTool } from './ctrlrun.generated.js';";

ruleTester('unprotected-door', {
  valid: [
    {
      name: 'the protected variants',
      code: lines(
        GEN,
        "export const sh = protectShellTool('host.shell', { shell });",
        "export const ap = protectApplyPatchTool('repo.patch', { editor });",
        "export const pc = protectComputerTool('browser.use', { computer });",
      ),
    },
    { name: 'a shellTool of another package', code: lines("import { shellTool } from 'my-shell';", 'export const sh = shellTool({ shell });') },
    {
      name: 'a hosted (container) shell is hosted-tool-ungated, not this',
      code: lines("import { shellTool } from '@openai/agents';", "export const sh = shellTool({ environment: { type: 'container_auto' } });"),
    },
    {
      name: 'suppressed with a reason',
      code: lines(
        "import { computerTool } from '@openai/agents';",
        '// ctrlrun-ignore unprotected-door -- a sandboxed browser with no credentials',
        'export const c = computerTool({ computer });',
      ),
    },
  ],
  invalid: [
    {
      name: 'shellTool and applyPatchTool of the SDK',
      code: lines(
        "import { applyPatchTool, shellTool } from '@openai/agents';",
        'export const sh = shellTool({ shell, needsApproval: true });',
        'export const ap = applyPatchTool({ editor });',
      ),
      errors: [
        { line: 2, column: 19, mentions: "protectShellTool('<action>'" },
        { line: 3, column: 19, mentions: "protectApplyPatchTool('<action>'" },
      ],
    },
    {
      name: 'computerTool, through a namespace',
      code: lines("import * as agents from '@openai/agents';", 'export const c = agents.computerTool({ computer });'),
      errors: [{ line: 2, column: 18, mentions: "protectComputerTool('<action>'" }],
    },
    {
      name: 'aliased, from agents-core',
      code: lines("import { shellTool as sh } from '@openai/agents-core';", 'export const t = sh({ shell });'),
      errors: [{ line: 2, column: 18, mentions: 'shell commands' }],
    },
  ],
});
