import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/load.js';
import { parsePolicy } from '../../src/policy/load.js';
import { cli } from '../helpers/cli.js';
import { typeCheck } from '../helpers/typecheck.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const AGENT = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

const lookup = tool({ name: 'lookup', description: 'Look up', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });

const refunds = new Agent({ name: 'Refunds', instructions: 'You refund charges.', tools: [lookup] });

export const desk = new Agent({
  name: 'Desk',
  tools: [
    refunds.asTool({ toolName: 'refund_expert', toolDescription: 'Refunds a charge.' }),
    // the SDK names this one after the agent: 'Weather_bot'
    new Agent({ name: 'Weather bot' }).asTool({ toolDescription: 'Tells the weather.' }),
  ],
});
`;

function repo(files: Record<string, string>): string {
  const dir = makeTempDir('init-agent-tools-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: 'desk', private: true, type: 'module' }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true },
      include: ['src'],
    }),
    ...files,
  });
  return dir;
}

function actionsOf(dir: string): Record<string, string[]> {
  const file = path.join(dir, 'ctrlrun.yaml');
  const policy = parsePolicy(readFileSync(file, 'utf8'), file);
  expect(policy.diagnostics).toEqual([]);
  return Object.fromEntries(Object.entries(policy.value!.actions).map(([id, a]) => [id, a.rules.map((r) => r.decision)]));
}

function mappingsOf(dir: string): Array<[string, string]> {
  const file = path.join(dir, 'ctrlrun.tools.yaml');
  const manifest = parseManifest(readFileSync(file, 'utf8'), file);
  expect(manifest.diagnostics).toEqual([]);
  return manifest.value!.tools.map((t) => [t.kind === 'function' ? t.tool : t.kind, t.action]);
}

describe('init proposes entries for agents used as tools (issue 13)', () => {
  it('an asTool gets a tool: entry by its SDK name and an action at decision: approve; the codemod then rewrites it to protectAgentTool and the repo type-checks', async () => {
    const dir = repo({ 'src/agent.ts': AGENT });
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(mappingsOf(dir)).toEqual([
      ['lookup', 'lookup'],
      ['refund_expert', 'refund_expert'],
      ['Weather_bot', 'weather_bot'],
    ]);
    expect(actionsOf(dir)).toEqual({ lookup: ['approve'], refund_expert: ['approve'], weather_bot: ['approve'] });
    expect(readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8')).toContain('# agent tool "refund_expert" (asTool at src/agent.ts:11): a call runs that agent');

    const generate = await cli(['generate'], { cwd: dir });
    expect(generate.code, generate.stdout + generate.stderr).toBe(0);
    const codemod = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    expect(codemod.stdout).toContain('2 other doors in 1 files; 0 already protected; 0 conflicts; 0 unmapped');
    const code = readFileSync(path.join(dir, 'src/agent.ts'), 'utf8');
    expect(code).toContain("protectAgentTool('refund_expert', refunds, { toolName: 'refund_expert'");
    expect(code).toContain("protectAgentTool('weather_bot', new Agent({ name: 'Weather bot' }), {");
    expect(code).not.toContain('.asTool(');
    const check = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(typeCheck(dir)).toEqual([]);
  });

  it('init --force after the codemod keeps the agent tool mapped and adds a new one; an asTool init cannot name is a note', async () => {
    const dir = repo({ 'src/agent.ts': AGENT });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    expect((await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir })).code).toBe(0);
    const policyFile = path.join(dir, 'ctrlrun.yaml');
    writeFileSync(policyFile, readFileSync(policyFile, 'utf8').replace(/ {2}weather_bot:\n {4}decision: approve/, '  weather_bot:\n    decision: allow'));
    writeFiles(dir, {
      'src/more.ts': `import { Agent } from '@openai/agents';
const triage = new Agent({ name: 'Triage' });
export const escalate = triage.asTool({ toolName: 'escalate', toolDescription: 'Escalates.' });
export const anonymous = (name: string) => new Agent({ name }).asTool({ toolDescription: 'Anything.' });
`,
    });
    const r = await cli(['init', '--force'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(actionsOf(dir)).toEqual({ lookup: ['approve'], refund_expert: ['approve'], weather_bot: ['allow'], escalate: ['approve'] });
    expect(mappingsOf(dir)).toEqual([
      ['lookup', 'lookup'],
      ['refund_expert', 'refund_expert'],
      ['Weather_bot', 'weather_bot'],
      ['escalate', 'escalate'],
    ]);
    expect(readFileSync(policyFile, 'utf8')).toContain('# agent tool "escalate" (asTool at src/more.ts:3) (added by init --force)');
    expect(r.stdout).toContain('note: src/more.ts:4: this asTool() has neither a literal `toolName` nor an agent with a literal `name`');
  });
  it('an asTool of an imported agent is mapped by its literal toolName only, and a handoff is named for its own agent', async () => {
    const dir = repo({
      'src/agents.ts': `import { Agent } from '@openai/agents';
export const billing = new Agent({ name: 'Billing' });
`,
      'src/desk.ts': `import { Agent, handoff } from '@openai/agents';
import { billing } from './agents.js';
export const desk = new Agent({
  name: 'Desk',
  tools: [billing.asTool({ toolName: 'ask_billing', toolDescription: 'Asks billing.' }), billing.asTool({ toolDescription: 'No name.' })],
});
export function lookupAgent() { const opts = { name: 'lookup' }; return new Agent(opts); }
export function refundsHandoff() {
  const opts = { name: 'refunds', instructions: 'Refund.' };
  const agent = new Agent(opts);
  return handoff(agent, { onHandoff: async () => {} });
}
`,
    });
    const r = await cli(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(mappingsOf(dir)).toEqual([
      ['ask_billing', 'ask_billing'],
      ['handoff', 'handoff.refunds'],
    ]);
    expect(r.stdout).toContain('note: src/desk.ts:5: this asTool() has neither a literal `toolName` nor an agent with a literal `name`');
  });
});
