import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { git, TS_AGENT, TSCONFIG_NODENEXT } from './loop-helpers.js';

/**
 * A package nested in a package, each with its own manifest (a library with an `examples/agent`
 * app, no workspace; seen in the loop on public repos): the root's generate, codemod and check stop
 * at the nested package, which is rewritten and checked on its own; its tools are not the root's
 * "unmapped" tools.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const LOOKUP = `import { Agent, tool } from '@openai/agents';
import { z } from 'zod';

export const lookup = tool({ name: 'lookup_order', description: 'Look an order up.', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });
export const agent = new Agent({ name: 'orders', tools: [lookup] });
`;

describe('a package nested in a package, each with its own ctrlrun.tools.yaml', () => {
  it("the root's commands leave the nested package to its own manifest", async () => {
    const dir = makeTempDir('nested-');
    dirs.push(dir);
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'lib', private: true, type: 'module' }),
      'tsconfig.json': TSCONFIG_NODENEXT,
      'src/agent.ts': TS_AGENT,
      'examples/agent/package.json': JSON.stringify({ name: 'example', private: true, type: 'module' }),
      'examples/agent/tsconfig.json': TSCONFIG_NODENEXT,
      'examples/agent/src/orders.ts': LOOKUP,
    });
    git(dir, 'init', '-q', '.');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'the app as it was');
    const init = await cli(['init'], { cwd: dir });
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).not.toContain('lookup_order');
    expect(readFileSync(path.join(dir, 'examples/agent/ctrlrun.tools.yaml'), 'utf8')).toContain('lookup_order');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'init');

    // the root alone, first: its codemod does not call the nested package's tool unmapped
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'generate');
    const codemod = await cli(['codemod', '--write'], { cwd: dir });
    expect(codemod.code, codemod.stdout + codemod.stderr).toBe(0);
    expect(codemod.stdout + codemod.stderr).not.toContain('lookup_order');
    expect(readFileSync(path.join(dir, 'src/agent.ts'), 'utf8')).toContain("protectedTool('refund'");
    // the nested package's file is its own manifest's to rewrite
    expect(readFileSync(path.join(dir, 'examples/agent/src/orders.ts'), 'utf8')).toBe(LOOKUP);
    const check = await cli(['check', '--format', 'json'], { cwd: dir });
    const findings = (JSON.parse(check.stdout) as { findings: Array<{ ruleId: string; file: string }> }).findings;
    expect(findings.filter((f) => f.file.startsWith('examples/'))).toEqual([]);
    expect(check.code, check.stdout).toBe(0);

    // and the nested package on its own, as init printed
    expect(init.stdout).toContain('--cwd examples/agent');
    for (const args of [['generate'], ['codemod', '--write'], ['check']]) {
      if (args[0] === 'codemod') {
        git(dir, 'add', '-A');
        git(dir, 'commit', '-qm', 'nested generate');
      }
      const r = await cli([...args, '--cwd', 'examples/agent'], { cwd: dir });
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    expect(readFileSync(path.join(dir, 'examples/agent/src/orders.ts'), 'utf8')).toContain("protectedTool('lookup_order'");
  }, 120_000);
});
