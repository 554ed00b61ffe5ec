import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Issue 40 item 4, left by session 28: a door made in one module and written in another. The module
 * that makes the door exports it; the module that imports it writes what the door depends on. The
 * write is reported in the writing module, at the write, by the rule of a write in the door's own
 * file (file/door-exports.ts, scan/imported-door-writes.ts).
 */

/** The module making the doors: a guarded server, a protected shell tool, a protected tool, an agent. */
const DOORS = lines(
  "import { Agent, MCPServerStdio, type Shell } from '@openai/agents';",
  "import { protectMcpServer, protectShellTool, protectedTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell;',
  "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  "const sh = protectShellTool('host.shell', { shell });",
  'export { sh as shellTool };',
  "export const refund = protectedTool('refund', { description: 'refund', parameters: {} as never, execute: async () => 'ok' });",
  "export const desk = new Agent({ name: 'desk', tools: [sh, refund], mcpServers: [github] });",
);

/** The doors' module with a writer `src/ops.ts` (its lines from 1) and, when given, more files. */
const repo = (ops: string[], more: Record<string, string> = {}): Record<string, string> => ({ 'src/doors.ts': DOORS, 'src/ops.ts': lines(...ops), ...more });

const at = (files: Record<string, string>, ruleId: string, file = 'src/ops.ts'): number[] =>
  lintRepo(files, { project: testProject(), ruleId, file }).map((f) => f.line);

describe('a door written in another module than the one making it', () => {
  it("reports an imported server's input guardrails replaced (no SDK named in the writer)", () => {
    expect(at(repo(["import { github } from './doors.js';", 'github.toolInputGuardrails = [];']), 'mcp-server-unguarded')).toEqual([2]);
  });

  it("reports an imported server's guard list emptied with splice, and its errorFunction replaced", () => {
    const files = repo(["import { github } from './doors.js';", 'github.toolOutputGuardrails.splice(0);', 'github.errorFunction = () => "no";']);
    expect(at(files, 'mcp-server-unguarded')).toEqual([2, 3]);
  });

  it("reports a local door's body swapped through its exported name (`export { sh as shellTool }`)", () => {
    const files = repo([
      "import type { Shell } from '@openai/agents';",
      "import { shellTool } from './doors.js';",
      'declare const other: Shell;',
      'shellTool.shell = other;',
    ]);
    expect(at(files, 'invoke-replaced')).toEqual([4]);
  });

  it("reports a local door's body swapped by a writer that names no SDK (only the door word `shell`)", () => {
    const files = repo(["import { shellTool } from './doors.js';", 'declare const other: unknown;', 'shellTool.shell = other as never;']);
    expect(at(files, 'invoke-replaced')).toEqual([3]);
  });

  it("reports an imported agent's getAllTools replaced", () => {
    expect(at(repo(["import { desk } from './doors.js';", 'desk.getAllTools = async () => [];']), 'invoke-replaced')).toEqual([2]);
  });

  it("reports an imported protected tool's invoke replaced", () => {
    expect(at(repo(["import { refund } from './doors.js';", 'refund.invoke = async () => "done";']), 'invoke-replaced')).toEqual([2]);
  });

  it('reports through a barrel (`export * from`) and a renaming re-export', () => {
    const star = repo(["import { github } from './index.js';", 'github.toolInputGuardrails = [];'], { 'src/index.ts': "export * from './doors.js';\n" });
    expect(at(star, 'mcp-server-unguarded')).toEqual([2]);
    const renamed = repo(["import { gh } from './index.js';", 'gh.toolInputGuardrails.length = 0;'], {
      'src/index.ts': "export { github as gh } from './doors.js';\n",
    });
    expect(at(renamed, 'mcp-server-unguarded')).toEqual([2]);
  });

  it('reports through a namespace import (`d.github.toolInputGuardrails = []`)', () => {
    expect(at(repo(["import * as d from './doors.js';", 'd.github.toolInputGuardrails = [];']), 'mcp-server-unguarded')).toEqual([2]);
  });

  it("reports an imported hosted MCP tool's approval turned off, and leaves `'always'`", () => {
    const hosted = lines(
      "import { hostedMcpTool } from '@openai/agents';",
      "export const docs = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://docs.example', requireApproval: 'always' });",
    );
    const files = {
      'src/hosted.ts': hosted,
      'src/ops.ts': lines(
        "import { docs } from './hosted.js';",
        "docs.providerData.require_approval = 'never';",
        "docs.providerData.require_approval = 'always';",
      ),
    };
    expect(at(files, 'hosted-mcp-unguarded')).toEqual([2]);
  });

  it('says how the imported door was written', () => {
    const [f] = lintRepo(repo(["import { github } from './doors.js';", "Reflect.set(github, 'toolInputGuardrails', []);"]), {
      project: testProject(),
      ruleId: 'mcp-server-unguarded',
      file: 'src/ops.ts',
    });
    expect(f?.message).toMatch(/Reflect\.set\(\).*toolInputGuardrails.*after protectMcpServer/);
  });
});

describe('safe writes of an imported door stay silent', () => {
  const quiet = (ops: string[], more?: Record<string, string>): void => {
    const files = repo(ops, more);
    for (const rule of ['mcp-server-unguarded', 'invoke-replaced']) expect(at(files, rule), rule).toEqual([]);
  };

  it('a guardrail pushed, or the list read', () => {
    quiet([
      "import { github } from './doors.js';",
      'declare const audit: never;',
      'github.toolInputGuardrails.push(audit);',
      'console.log(github.toolInputGuardrails.length);',
    ]);
  });

  it('an unrelated export written, and a door property of a non-door export', () => {
    quiet(
      ["import { settings, github } from './doors.js';", 'settings.shell = "/bin/sh";', 'settings.toolInputGuardrails = [];', 'github.cacheToolsList = true;'],
      { 'src/doors.ts': `${DOORS}export const settings: Record<string, unknown> = {};\n` },
    );
  });

  it('a local variable shadowing the imported name', () => {
    quiet([
      "import { github } from './doors.js';",
      'export function f() {',
      '  const github = { toolInputGuardrails: [1] };',
      '  github.toolInputGuardrails = [];',
      '}',
    ]);
  });

  it("an object's shell written when the import is no local door (a server has no shell)", () => {
    quiet(["import { github } from './doors.js';", 'declare const s: never;', 'Object.assign(github, { shell: s });']);
  });
});
