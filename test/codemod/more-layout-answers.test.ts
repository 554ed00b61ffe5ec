import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Session 22, more answer layouts (issue 40 item 4). Code shape: the app-approvals fixture's tools
 * and manifest, with a server class answering close_account's interruptions in layouts the readers
 * left unseen: the state's type imported with `import type` from the app's own barrel of the SDK,
 * the runs destructured from `this`, a static field, an untyped `new Map()` of realtime sessions,
 * `import sdk = require('@openai/agents')`. The codemod rewrote close_account with "0 conflicts".
 * Control: the same class over the app's own `RunState` (a module of its own) gives no conflict.
 */
const HEAD = [
  "import { Agent, run, type RunResult } from '@openai/agents';",
  "import { RealtimeSession } from '@openai/agents/realtime';",
  "import { closeAccount, lookupCharge } from './tools.js';",
  '',
  "export const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
  '',
];

const layouts: Record<string, { code: string[]; line: number; files?: Record<string, string> }> = {
  "`import type { RunState }` from the app's barrel of the SDK": {
    code: [
      "import type { RunState } from './sdk.js';",
      'export class Desk {',
      '  private state?: RunState<any, any>;',
      '  yes(item: unknown) { this.state!.approve(item); }',
      '}',
    ],
    line: 10,
    files: { 'src/sdk.ts': "export * from '@openai/agents';\n" },
  },
  '`const { runs } = this; runs.get(id)!.state`': {
    code: [
      'export class Desk {',
      '  private runs = new Map<string, RunResult<any, any>>();',
      '  yes(id: string, item: unknown) { const { runs } = this; runs.get(id)!.state.approve(item); }',
      '}',
    ],
    line: 9,
  },
  'a static field read by the class name': {
    code: ['export class Desk {', '  static last?: RunResult<any, any>;', '}', 'export function yes(item: unknown) { Desk.last!.state.approve(item); }'],
    line: 10,
  },
  'an untyped `new Map()` of realtime sessions': {
    code: [
      'export class Voice {',
      '  private sessions = new Map();',
      '  open(id: string) { this.sessions.set(id, new RealtimeSession(desk as any)); }',
      '  yes(id: string, item: any) { this.sessions.get(id)!.approve(item); }',
      '}',
    ],
    line: 10,
  },
};

function app(text: string, files: Record<string, string> = {}): string {
  const root = makeTempDir('more-layout-');
  dirs.push(root);
  cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
  cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
  writeFileSync(path.join(root, 'src/app.ts'), text);
  for (const [rel, t] of Object.entries(files)) writeFileSync(path.join(root, rel), t);
  return root;
}

describe('the codemod keeps close_account where a class answers in the layouts left unseen', () => {
  for (const [name, { code, line, files }] of Object.entries(layouts)) {
    it(`a conflict naming src/app.ts:${line}: ${name}`, async () => {
      const r = await cli(['codemod'], { cwd: app([...HEAD, ...code, ''].join('\n'), files) });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain(`answered at src/app.ts:${line}:`);
      expect(r.code).toBe(1);
    });
  }

  it("no conflict: `import type { RunState }` of the app's own module", async () => {
    const { code } = layouts["`import type { RunState }` from the app's barrel of the SDK"]!;
    const r = await cli(['codemod'], {
      cwd: app([...HEAD, ...code, ''].join('\n'), { 'src/sdk.ts': 'export class RunState<A, B> { approve(x: unknown) {} }\n' }),
    });
    expect(r.stdout).not.toContain('answered at src/app.ts');
    expect(r.stdout).toContain('0 conflicts');
  });
});
