import { afterAll, describe, expect, it } from 'vitest';
import { scanRepoSync } from '../../src/scan/index.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { lines, lintRepo, testProject } from './rule-tester.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/*
 * Session 30 (issue 40 item 4): a module the listing leaves out (git ignores it) that names no SDK
 * is passed over by the prefilter, then parsed late as a writer of an imported door
 * (scan/imported-door-writes.ts). It is as unlisted as one parsed first: its findings' hints say the
 * codemod does not rewrite it (check/rules/unlisted-hint.ts), never send the user to the codemod.
 */
const files = {
  '.gitignore': 'src/gen/\n',
  'src/servers.ts': lines(
    "import { MCPServerStdio } from '@openai/agents';",
    "import { protectMcpServer } from './ctrlrun.generated.js';",
    "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  ),
  'src/hosted.ts': lines(
    "import { hostedMcpTool } from '@openai/agents';",
    "export const docs = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://docs.example', requireApproval: 'always' });",
  ),
  'src/gen/ops.ts': lines(
    "import { github } from '../servers.js';",
    "import { docs } from '../hosted.js';",
    'github.toolInputGuardrails = [];',
    "docs.providerData.require_approval = 'never';",
  ),
  'src/agent.ts': lines(
    "import { Agent } from '@openai/agents';",
    "import { github } from './servers.js';",
    "import './gen/ops.js';",
    "import { docs } from './hosted.js';",
    "export const desk = new Agent({ name: 'desk', tools: [docs], mcpServers: [github] });",
  ),
};

describe('an unlisted module parsed late as a door writer', () => {
  it('the scan marks it unlisted', () => {
    const dir = makeTempDir('red30-unlisted-writer-');
    dirs.push(dir);
    writeFiles(dir, files);
    const scan = scanRepoSync({ root: dir });
    expect(scan.files.filter((s) => s.file === 'src/gen/ops.ts').map((s) => s.unlisted)).toEqual(['ignored']);
  });

  it('its door writes are reported there; a hint that names the codemod says first that the codemod leaves it', () => {
    const found = lintRepo(files, { project: testProject(), file: 'src/gen/ops.ts' });
    expect(found.map((f) => `${f.line} ${f.ruleId}`)).toEqual(['3 mcp-server-unguarded', '4 hosted-mcp-unguarded']);
    expect(found[1]!.hint).toMatch(/^The codemod does not rewrite this module \(git ignores it: built at build time\?\)[\s\S]*The fix: .*codemod/);
    // a hint that names no codemod is left as it is
    expect(found[0]!.hint).toMatch(/^Add guardrails without removing/);
  });

  it("control: the same writer listed keeps the rule's own hint", () => {
    const listed = { ...files, '.gitignore': '' };
    const found = lintRepo(listed, { project: testProject(), file: 'src/gen/ops.ts' });
    expect(found.map((f) => `${f.line} ${f.ruleId}`)).toEqual(['3 mcp-server-unguarded', '4 hosted-mcp-unguarded']);
    expect(found[1]!.hint).not.toMatch(/^The codemod does not rewrite this module/);
    expect(found[1]!.hint).toMatch(/codemod/);
  });
});

describe("an unlisted module's importers (ESLint shows its findings there)", () => {
  it('the scanned files that import it, directly, through a listed barrel, or through another unlisted module', () => {
    const dir = makeTempDir('red30-importers-');
    dirs.push(dir);
    writeFiles(dir, {
      '.gitignore': 'src/gen/\n',
      'src/gen/wire.ts': lines(
        "import { tool } from '@openai/agents';",
        "export const wire = tool({ name: 'w', description: 'w', parameters: {} as never, execute: async () => 'ok' });",
      ),
      'src/gen/index.ts': lines("import { tool } from '@openai/agents';", "export * from './wire.js';", 'export const t = tool;'),
      'src/tools/index.ts': "export * from '../gen/wire.js';\n",
      'src/a.ts': lines(
        "import { Agent } from '@openai/agents';",
        "import { wire } from './gen/wire.js';",
        "export const a = new Agent({ name: 'a', tools: [wire] });",
      ),
      'src/b.ts': lines(
        "import { Agent } from '@openai/agents';",
        "import { wire } from './tools/index.js';",
        "export const b = new Agent({ name: 'b', tools: [wire] });",
      ),
      'src/c.ts': lines(
        "import { Agent } from '@openai/agents';",
        "import { t } from './gen/index.js';",
        "export const c = new Agent({ name: 'c', tools: [t] });",
      ),
    });
    const scan = scanRepoSync({ root: dir });
    const by = (file: string) =>
      scan.files
        .find((s) => s.file === file)
        ?.importedBy?.map((i) => `${i.file} ${i.specifier}`)
        .sort();
    expect(by('src/gen/wire.ts')).toEqual(['src/a.ts ./gen/wire.js', 'src/b.ts ./tools/index.js', 'src/c.ts ./gen/index.js']);
    expect(by('src/gen/index.ts')).toEqual(['src/c.ts ./gen/index.js']);
  });
});
