/** A module whose one export is a protected shell door (`shellTool`), as the writer-search tests of check, the codemod and ESLint import it. */
export const SHELL_DOOR_MODULE = [
  "import type { Shell } from '@openai/agents';",
  "import { protectShellTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell;',
  "export const shellTool = protectShellTool('host.shell', { shell });",
  '',
].join('\n');
