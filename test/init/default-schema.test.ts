import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';

// Issue 40 item 2, as seen on an Express + Twilio app: eleven tools, one with
// `priority: z.string().default('medium')`, every action `decision: approve`, no rule reading
// `priority`. generate refused, so the codemod wrote nothing and all eleven stayed open.

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const TOOL = (name: string, extra = '') => `export const ${name} = tool({
  name: '${name}',
  description: 'Handle ${name}.',
  parameters: z.object({ phone: z.string()${extra} }),
  execute: async ({ phone }) => \`${name} for \${phone}\`,
});
`;

function twilioApp(): string {
  const dir = makeTempDir('twilio-');
  dirs.push(dir);
  const names = [
    'send_sms',
    'lookup_caller',
    'book_slot',
    'cancel_slot',
    'list_slots',
    'transfer_call',
    'record_note',
    'send_email',
    'charge_card',
    'refund_card',
  ];
  writeFiles(dir, {
    'package.json': JSON.stringify({
      name: 'twilio-desk',
      private: true,
      type: 'module',
      dependencies: { '@openai/agents': '0.20.0', zod: '4.6.7', express: '5.1.0' },
    }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: [] },
      include: ['src'],
    }),
    'src/tools.ts': `import { tool } from '@openai/agents';\nimport { z } from 'zod';\n\n${names.map((n) => TOOL(n)).join('\n')}\n${TOOL('create_ticket', ", priority: z.string().default('medium')")}`,
    'src/agent.ts': `import { Agent, run } from '@openai/agents';\nimport * as tools from './tools.js';\n\nexport const desk = new Agent({ name: 'desk', tools: Object.values(tools) });\nexport const answer = (text: string, user: string) => run(desk, text, { context: { user } });\n`,
  });
  return dir;
}

describe('a literal .default() no rule reads (issue 40 item 2)', () => {
  it('the loop goes on: generate exit 0, all eleven tools rewritten, check green, the app type-checks', async () => {
    const dir = twilioApp();
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    const generate = await cli(['generate'], { cwd: dir });
    expect(generate.code, generate.stderr).toBe(0);
    expect(generate.stderr).toBe('');
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    expect(codemod.stdout).toMatch(/11 tools rewritten in 1 files/);
    const tools = readFileSync(path.join(dir, 'src/tools.ts'), 'utf8');
    expect(tools).toContain("export const create_ticket = protectedTool('create_ticket', {");
    expect(tools).toContain("priority: z.string().default('medium')");
    const check = await cli(['check', '--format', 'json'], { cwd: dir });
    const findings = (JSON.parse(check.stdout) as { findings: Array<{ severity: string; ruleId: string }> }).findings;
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(typeCheck(dir)).toEqual([]);
  });
});
