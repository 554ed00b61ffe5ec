import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declarationsInSource } from '../../src/generate/declarations.js';
import { actionSchemas } from '../../src/generate/tool-schemas.js';
import type { Manifest } from '../../src/manifest/types.js';
import { toolGate } from '../../src/policy-test/tool-gate.js';
import { compileJsonSchema } from '../../src/runtime/json-schema.js';
import { testProject } from '../check/rule-tester.js';
import { cli } from '../helpers/cli.js';
import { removeDir } from '../helpers/temp-repo.js';
import { ticketFixture } from '../helpers/ticket-fixture.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 (left by session 20): `priority: z.string().min(3).default('ab')`. zod fills a left-out
 * `priority` with 'ab' unchecked, but refuses 'ab' sent by the model (min 3). `explain` and `test`
 * allowed the sent 'ab': the gate read no string length. They must check what was sent and fill in,
 * unchecked, only what was left out.
 */
const SCHEMA = z.object({ priority: z.string().min(3).default('ab') });
const POLICY = 'schema: ctrlrun.policy/v6\nactions:\n  tickets.file:\n    rules:\n      - decision: allow\n';
const CASES =
  'schema: ctrlrun.policy-test/v1\ncases:\n  - name: ab sent\n    action: tickets.file\n    args: { priority: ab }\n    expect: { decision: allow }\n';

function fixture(): string {
  return ticketFixture(dirs, 'checked-sent-', { schema: "z.object({ priority: z.string().min(3).default('ab') })", policy: POLICY, cases: CASES });
}

describe('a value sent is checked, a default is not', () => {
  it('zod, the control: refuses a sent ab, fills a left-out one with ab', () => {
    expect(SCHEMA.safeParse({ priority: 'ab' }).success).toBe(false);
    expect(SCHEMA.parse({})).toEqual({ priority: 'ab' });
  });

  it('explain refuses {"priority":"ab"} before any rule and decides {} on ab', async () => {
    const dir = fixture();
    const sent = await cli(['explain', 'tickets.file', '--args', '{"priority":"ab"}'], { cwd: dir });
    expect(sent.stdout).toContain('tickets.file: refused by the tool (invalid_arguments)');
    expect(sent.stdout).toContain('(/priority: must have at least 3 characters)');
    const left = await cli(['explain', 'tickets.file', '--args', '{}'], { cwd: dir });
    expect(left.stdout).toContain('tickets.file: allow (rule[0] matched)');
    expect(left.stdout).not.toContain('refused by the tool');
  });

  it('test fails a case expecting the sent ab to be allowed', async () => {
    const r = await cli(['test'], { cwd: fixture() });
    expect(r.stdout).toContain('FAIL ab sent');
    expect(r.stdout).toContain('must have at least 3 characters');
    expect(r.code).toBe(1);
  });
});

/** A JSON-schema tool's `minLength`/`maxLength`: the gate refuses what the runtime's own check of that schema refuses. */
describe('a JSON-schema string length, as the runtime checks it', () => {
  it('the gate and the runtime agree on every call', () => {
    const schema = { type: 'object', properties: { p: { type: 'string', minLength: 2, maxLength: 3 } }, required: ['p'] };
    const text = `import { tool } from '@openai/agents';\nexport const t = tool({ name: 't', description: 'd', parameters: ${JSON.stringify(schema)}, strict: false, execute: async () => '' });\n`;
    const loc = { file: '/repo/ctrlrun.tools.yaml', line: 1, column: 1 };
    const manifest: Manifest = { ...testProject().manifest, tools: [{ kind: 'function', tool: 't', action: 'a.t', loc }] };
    const gate = toolGate(actionSchemas(manifest, new Map([['t', declarationsInSource('/repo/src/tools.ts', text, new Set(['t']))]])))!;
    const runtime = compileJsonSchema(schema, 'the test schema');
    const calls = ['a', 'ab', 'abc', 'abcd', '\u{1F600}\u{1F600}', '\u{1F600}\u{1F600}\u{1F600}\u{1F600}'].map((p) => ({ p }));
    const seen = calls.map((args) => [args.p, gate('a.t', args) === null, runtime(args) === null]);
    expect(seen).toEqual(calls.map((args) => [args.p, runtime(args) === null, runtime(args) === null]));
    expect(seen.filter(([, ok]) => !ok).map(([p]) => p)).toEqual(['a', 'abcd', '\u{1F600}\u{1F600}\u{1F600}\u{1F600}']);
  });
});
