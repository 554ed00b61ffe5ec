import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadPolicyOrThrow } from '../../src/policy/load.js';
import { compilePolicy } from '../../src/policy-test/decider.js';
import { bindProtectedTool, createControl, memoryStore, run } from '../../src/runtime/index.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { agentWith, assistantMessage, functionCall, scripted } from '../runtime/helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40, found by the red team in session 20 (a false green, fixed; as it was): session 20's own fixture (tool-default-outside: a limit
 * of 1 to 500 whose `.default(0)` hands the body 0) with a `.catch(1)` after the default. zod still
 * fills a left-out limit with 0 (the default runs first; the catch only replaces what fails), so the
 * Runner decides `{}` on limit 0 and the two policies differ there. generate/params.ts keeps one
 * fill per field, the catch's, so 0 leaves the diff's domain again and `diff` says "no change:
 * every call is decided as before".
 */
const DIR = path.join(FIXTURES, 'policy-test/tool-default-outside');
const SCHEMA = 'z.number().int().min(1).max(500).default(0).catch(1)';

function fixture(): string {
  const dir = makeTempDir('diffcatch-');
  dirs.push(dir);
  cpSync(DIR, dir, { recursive: true });
  const tools = path.join(dir, 'src/tools.ts');
  const text = readFileSync(tools, 'utf8').replace('z.number().int().min(1).max(500).default(0).optional()', SCHEMA);
  expect(text).toContain(SCHEMA);
  writeFileSync(tools, text);
  return dir;
}

describe('diff with a default outside the range under a .catch()', () => {
  it('the real Runner decides `{}` on limit 0 (control: allowed by the head policy’s rule 0)', async () => {
    const dir = fixture();
    const { policy } = loadPolicyOrThrow(path.join(dir, 'ctrlrun.yaml'));
    const store = memoryStore();
    const protectedTool = bindProtectedTool<'orders.list'>(createControl({ store, identity: () => 'alice' }), compilePolicy(policy));
    const ran: unknown[] = [];
    const list = protectedTool('orders.list', {
      name: 'list_orders',
      description: 'List orders.',
      parameters: z.object({ limit: z.number().int().min(1).max(500).default(0).catch(1) }),
      execute: async (args) => {
        ran.push(args);
        return 'listed';
      },
    });
    await run(agentWith(scripted([functionCall('list_orders', {}, { callId: 'c1' })], [assistantMessage('done')]), [list]), 'list');
    expect(ran).toEqual([{ limit: 0 }]);
    expect((await store.listReceipts()).map((r) => [r.result, r.reason.split(':')[0]])).toEqual([
      ['allowed', 'rule[0]'],
      ['executed', 'rule[0]'],
    ]);
  });

  it('diff reports the looser region at limit 0, never "no change"', async () => {
    const dir = fixture();
    const r = await cli(['diff', 'base.yaml'], { cwd: dir });
    expect(r.stdout).not.toContain('no change');
    const report = JSON.parse((await cli(['diff', 'base.yaml', '--format', 'json'], { cwd: dir })).stdout);
    expect(report.summary.looser).toBeGreaterThan(0);
  });
});
