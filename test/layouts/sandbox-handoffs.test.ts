import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';
import { committedRepo, git, TSCONFIG_NODENEXT, userLoop } from './loop-helpers.js';

/**
 * Issue 35: the user's loop on an app with SandboxAgents (default capabilities, explicit ones, a
 * `configureTools`) and handoffs (a plain agent, `handoff()` with `inputType` and `onHandoff`, one
 * with `onHandoff` only): init maps every door, generate compiles them, the codemod wraps the
 * agents and rewrites the handoffs, check is green, the app type-checks, and a second codemod
 * changes nothing. Needs `npm run build` (check's worker).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const BOX = `import { SandboxAgent, compaction, filesystem, memory, shell } from '@openai/agents/sandbox';

export const box = new SandboxAgent({ name: 'box', instructions: 'Fix the failing test.' });

export const ops = new SandboxAgent({
  name: 'ops',
  instructions: 'Keep the service up.',
  capabilities: [shell(), filesystem(), memory(), compaction()],
});

export const reader = new SandboxAgent({
  name: 'reader',
  capabilities: [shell({ configureTools: (tools) => tools.filter((t) => t.name === 'exec_command') })],
});
`;

const DESK = `import { Agent, handoff } from '@openai/agents';
import { z } from 'zod';

export const paged: string[] = [];
const billing = new Agent({ name: 'billing', instructions: 'Invoices.' });
const oncall = new Agent({ name: 'oncall', instructions: 'Incidents.' });
const refunds = new Agent({ name: 'refunds', instructions: 'Refunds.' });

export const desk = new Agent({
  name: 'desk',
  instructions: 'Route the user.',
  handoffs: [
    billing,
    handoff(oncall, {
      inputType: z.object({ severity: z.enum(['low', 'high']) }),
      onHandoff: (_ctx, input) => void paged.push(input?.severity ?? 'none'),
    }),
    handoff(refunds, { onHandoff: () => void paged.push('refunds') }),
  ],
});
`;

describe('SandboxAgents and handoffs through the loop (issue 35)', () => {
  it('init maps them, the codemod protects them, check is green, the app type-checks; generate refuses a handoff that could pause', async () => {
    const dir = committedRepo(dirs, 'sandbox-handoffs-', {
      'package.json': JSON.stringify({ name: 'doors-app', private: true, type: 'module' }),
      'tsconfig.json': TSCONFIG_NODENEXT,
      'src/box.ts': BOX,
      'src/desk.ts': DESK,
    });
    // before: check names every open door
    const before = await cli(['check', '--format', 'json'], { cwd: dir });
    const open = (JSON.parse(before.stdout) as { findings: Array<{ ruleId: string; line: number }> }).findings.filter((f) =>
      f.ruleId.startsWith('unprotected-'),
    );
    expect(open.map((f) => `${f.ruleId}:${f.line}`).sort()).toEqual([
      'unprotected-handoff:14',
      'unprotected-handoff:18',
      'unprotected-sandbox-agent:11',
      'unprotected-sandbox-agent:3',
      'unprotected-sandbox-agent:5',
    ]);

    const said = await userLoop(dir);
    expect(said).toContain('4 sandbox tools and 3 handoffs');
    const manifest = readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8');
    for (const entry of [
      'sandbox: { tool: exec_command }',
      'sandbox: { tool: write_stdin }',
      'sandbox: { tool: apply_patch }',
      'sandbox: { tool: view_image }',
    ]) {
      expect(manifest).toContain(entry);
    }
    for (const to of ['billing', 'oncall', 'refunds']) expect(manifest).toContain(`handoff: { to: ${to} }`);
    expect(readFileSync(path.join(dir, 'ctrlrun.yaml'), 'utf8')).toMatch(/sandbox\.exec_command:\n {4}decision: approve/);

    const box = readFileSync(path.join(dir, 'src/box.ts'), 'utf8');
    expect(box.match(/protectSandboxAgent\(new SandboxAgent\(/g)).toHaveLength(3);
    const desk = readFileSync(path.join(dir, 'src/desk.ts'), 'utf8');
    expect(desk).toContain("protectHandoff('handoff.billing', billing),");
    expect(desk).toContain("protectHandoff('handoff.oncall', oncall, {");
    expect(desk).toContain("protectHandoff('handoff.refunds', refunds, { onHandoff");
    expect(desk).toContain("import { Agent } from '@openai/agents';");
    expect(typeCheck(dir)).toEqual([]);

    // a second run changes nothing
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'codemod');
    const again = await cli(['codemod', '--write'], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);
    expect(readFileSync(path.join(dir, 'src/box.ts'), 'utf8')).toBe(box);
    expect(readFileSync(path.join(dir, 'src/desk.ts'), 'utf8')).toBe(desk);

    // a handoff action a person would have to approve: the SDK cannot pause a handoff, so generate refuses it
    const policy = path.join(dir, 'ctrlrun.yaml');
    writeFileSync(policy, readFileSync(policy, 'utf8').replace(/(handoff\.oncall:\n {4}decision:) allow/, '$1 approve'));
    const refused = await cli(['generate'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('ctrlrun.yaml:30:5: error: `handoff.oncall` decides the handoff to agent `oncall`, and it can decide `approve`');
    expect(refused.stderr).toContain('cannot pause a handoff');
  }, 180_000);
});
