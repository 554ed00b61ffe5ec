import { scanRepoSync } from '../../src/scan/index.js';
import type { RepoScan } from '../../src/scan/types.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { lines } from './rule-tester.js';

/** A git-ignored module building a raw tool (line 3): the unlisted module the reach tests load. */
export const GIT_IGNORED_TOOL = {
  '.gitignore': 'src/gen/\n',
  'src/gen/wire.ts': lines(
    "import { tool } from '@openai/agents';",
    "import { z } from 'zod';",
    "export const wire = tool({ name: 'refund', description: 'From the spec', parameters: z.object({ payment_id: z.string() }), execute: async () => 'sent', errorFunction: null });",
  ),
};

/** `src/agent.ts` with the lines `load` between its SDK import and its agent holding `tools`. */
export function agentLoading(tools: string, ...load: string[]): Record<string, string> {
  return {
    ...GIT_IGNORED_TOOL,
    'src/agent.ts': lines(
      "import { Agent } from '@openai/agents';",
      ...load,
      `export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: ${tools} });`,
    ),
  };
}

/** One scan of a tree written to a temporary folder (removed after), and its unreadable-file findings as `file: message`. */
export function scanTree(files: Record<string, string>, prefix: string): { scan: RepoScan; unread: string[] } {
  const root = makeTempDir(prefix);
  try {
    writeFiles(root, files);
    const scan = scanRepoSync({ root });
    return { scan, unread: (scan.unreadable ?? []).map((u) => `${u.file}: ${u.message}`) };
  } finally {
    removeDir(root);
  }
}

/** The module making a guarded server (line 4) and a protected shell tool (line 5). */
export const DOORS = lines(
  "import { MCPServerStdio, type Shell } from '@openai/agents';",
  "import { protectMcpServer, protectShellTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell;',
  "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  "export const shellTool = protectShellTool('host.shell', { shell });",
);

/**
 * The unreadable-file text check gives the first unlisted module past the 64 one scan reads (`more`:
 * how many more it found past it) and the first listed barrel past the 256 it follows.
 */
export const pastCap = {
  module: (file: string, more: number): string =>
    `${file}: the file is a module the listing leaves out that the checked files import, found after the 64 such modules check reads in one scan: ${
      more === 0
        ? 'it was not read, nor what it imports'
        : `it and the ${more} more such module${more === 1 ? '' : 's'} found past it were not read, nor what they import`
    }`,
  barrel: (file: string, more: number): string =>
    `${file}: the file is a listed module naming no SDK that the checked files import, found after the 256 such modules check follows in one scan: the modules ${
      more === 0 ? 'it re-exports or imports' : `it and the ${more} more such module${more === 1 ? '' : 's'} found past it re-export or import`
    } were not followed (a module the listing leaves out among them was not read)`,
};
