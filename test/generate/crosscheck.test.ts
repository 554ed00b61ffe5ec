import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics.js';
import { UserError } from '../../src/diagnostics.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const MANIFEST = `schema: ctrlrun.tools/v1
policy: ctrlrun.yaml
output: src/ctrlrun.generated.ts
control: src/ctrlrun.control.ts
tools:
  - tool: refund
    action: stripe.refund
`;

const TOOLS = `import { tool } from '@openai/agents';
import { z } from 'zod';

export const refund = tool({
  name: 'refund',
  description: 'Refund a charge.',
  parameters: z.object({
    payment_id: z.string(),
    amount: z.number().int(),
    ratio: z.number(),
    currency: z.enum(['eur', 'usd']),
    live: z.boolean(),
    note: z.string().optional(),
    maybe: z.string().nullable(),
    tags: z.array(z.string()),
  }),
  execute: async () => 'ok',
});
`;

function repo(files: Record<string, string>): string {
  const dir = makeTempDir('crosscheck-');
  dirs.push(dir);
  writeFiles(dir, { 'ctrlrun.tools.yaml': MANIFEST, 'src/tools.ts': TOOLS, 'src/ctrlrun.control.ts': 'export default {};\n', ...files });
  return dir;
}

function policyWith(action: string): string {
  return `schema: ctrlrun.policy/v6\nactions:\n  stripe.refund:\n${action.replace(/^/gm, '    ')}\n`;
}

/**
 * The diagnostics generate reports: the thrown UserError's, or those of a module it wrote; `refused`:
 * it threw, or it leaves the tool unprotected (issue 40: one tool's errors no longer stop the module).
 */
function diagnosticsOf(dir: string): { refused: boolean; leftOut: string[]; diagnostics: Diagnostic[] } {
  try {
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    return { refused: generated.leftOut.size > 0, leftOut: [...generated.leftOut.keys()], diagnostics: generated.diagnostics };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { refused: true, leftOut: [], diagnostics: error.diagnostics };
  }
}

const rel = (dir: string, d: { file: string; line: number }) => `${path.relative(dir, d.file)}:${d.line}`;

describe('generate cross-checks the policy against the tool parameters', () => {
  it('accepts a policy that uses the arguments as declared', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith(`effect: "refund:{payment_id}:{amount}:{currency}"
rules:
  - when: { amount_gte: 1, amount_lt: 100, currency_in: [eur], live_eq: true, payment_id_neq: x, note_eq: hi }
    decision: allow
  - decision: deny`),
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(false);
    expect(r.diagnostics).toEqual([]);
  });

  it('decides on what the body gets: .trim().toLowerCase(), a literal .default(), z.coerce.number() on arguments the policy reads pass (issue 40)', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith(
        `effect: "refund:{currency}"\nrules:\n  - when: { payment_id_eq: mallory, amount_gte: 5, note_eq: hi }\n    decision: deny\n  - decision: allow`,
      ),
      'src/tools.ts': TOOLS.replace('payment_id: z.string(),', 'payment_id: z.string().trim().toLowerCase(),')
        .replace('amount: z.number().int(),', 'amount: z.coerce.number().int(),')
        .replace("currency: z.enum(['eur', 'usd']),", "currency: z.enum(['eur', 'usd']).default('eur'),")
        .replace('note: z.string().optional(),', "note: z.string().catch('hi'),"),
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(false);
    expect(r.diagnostics).toEqual([]);
  });

  it('refuses, where the policy reads it, a step whose result cannot be known statically; that tool is left out, at its line in the code', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith(`rules:\n  - when: { payment_id_eq: mallory }\n    decision: deny\n  - decision: allow`),
      'src/tools.ts': TOOLS.replace('payment_id: z.string(),', 'payment_id: z.string().transform((s) => s.slice(1)),').replace(
        'note: z.string().optional(),',
        'note: z.string().default(() => new Date().toISOString()),',
      ),
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(true);
    expect(r.leftOut).toEqual(['refund']);
    // the note no rule reads is not refused: its computed default is decided as computed
    expect(r.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['warning argument-type-unreadable', 'error schema-transforms-input']);
    const d = r.diagnostics[1]!;
    expect(rel(dir, d)).toBe('src/tools.ts:8');
    expect(d.message).toBe(
      '`payment_id` of tool `refund` uses .transform(), whose result cannot be known statically, and `actions.stripe.refund.rules[0].when.payment_id_eq` reads it: the policy decides on the value the body gets, which generate cannot check',
    );
    expect(d.hint).toContain("give .transform() a literal (`.default('medium')`)");
    expect(rel(dir, d.related!)).toBe('ctrlrun.yaml:5');
  });

  it('a computed default on an action that can pause: a warning (the resumed call computes it again); a float filled in: an error', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith(`rules:\n  - when: { amount_gte: 100 }\n    decision: approve\n  - decision: allow`),
      'src/tools.ts': TOOLS.replace('note: z.string().optional(),', 'note: z.string().default(() => crypto.randomUUID()),').replace(
        'ratio: z.number(),',
        'ratio: z.number().default(0.5),',
      ),
    });
    const r = diagnosticsOf(dir);
    expect(r.leftOut).toEqual(['refund']);
    expect(r.diagnostics.map((d) => `${rel(dir, d)} ${d.severity} ${d.code}`)).toEqual([
      'src/tools.ts:10 error schema-default-float',
      'src/tools.ts:13 warning schema-computed-default',
    ]);
    expect(r.diagnostics[0]!.message).toContain('fills in a float with .default(0.5)');
    expect(r.diagnostics[1]!.message).toContain('makes the approval not match (ApprovalMismatch)');
  });

  it('refuses a when on an argument the tool does not have, naming both places', () => {
    const dir = repo({ 'ctrlrun.yaml': policyWith(`rules:\n  - when: { amount_gte: 1, amout_lte: 5 }\n    decision: allow`) });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(true);
    const d = r.diagnostics.find((x) => x.code === 'unknown-argument');
    expect(d?.message).toContain('amout');
    expect(rel(dir, d!)).toBe('ctrlrun.yaml:5');
    expect(d?.path).toBe('actions.stripe.refund.rules[0].when.amout_lte');
    expect(d?.hint).toBe('did you mean `amount`?');
    expect(rel(dir, d!.related!)).toBe('src/tools.ts:7');
    expect(d?.related?.message).toContain('payment_id, amount, ratio');
  });

  it('data_scope is derived, not an argument: generate accepts it; a data: label on an argument the tool lacks is refused', () => {
    const ok = repo({
      'ctrlrun.yaml': policyWith(
        `data: { payment_id: pii, note: internal }\nrules:\n  - when: { data_scope_in: [pii] }\n    decision: approve\n  - decision: allow`,
      ).replace('v6', 'v7'),
    });
    const good = diagnosticsOf(ok);
    expect(good.refused).toBe(false);
    expect(good.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const bad = repo({
      'ctrlrun.yaml': policyWith(`data: { payment_di: pii }\nrules:\n  - when: { data_scope_in: [pii] }\n    decision: approve\n  - decision: allow`).replace(
        'v6',
        'v7',
      ),
    });
    const r = diagnosticsOf(bad);
    expect(r.refused).toBe(true);
    expect(r.diagnostics.map((d) => `${d.code} ${d.path}`)).toEqual(['unknown-argument actions.stripe.refund.data.payment_di']);
    expect(r.diagnostics[0]?.message).toContain('never enter `data_scope`');
    expect(r.diagnostics[0]?.hint).toBe('did you mean `payment_id`?');
  });

  it('refuses a numeric operator on a non-integer argument', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith(`rules:\n  - when: { ratio_lt: 1 }\n    decision: allow\n  - when: { payment_id_gt: 3 }\n    decision: allow`),
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(true);
    const codes = r.diagnostics.filter((x) => x.code === 'non-integer-argument');
    expect(codes.map((d) => [rel(dir, d), rel(dir, d.related!)])).toEqual([
      ['ctrlrun.yaml:5', 'src/tools.ts:10'],
      ['ctrlrun.yaml:7', 'src/tools.ts:8'],
    ]);
    expect(codes[0]?.hint).toContain('z.number().int()');
  });

  it('refuses eq/neq/in values whose type does not match the argument', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith(`rules:
  - when: { amount_eq: "5" }
    decision: allow
  - when: { live_neq: 1 }
    decision: allow
  - when: { currency_in: [eur, gbp] }
    decision: allow
  - when: { payment_id_in: [a, 2] }
    decision: allow
  - when: { ratio_eq: 1 }
    decision: allow`),
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(true);
    const mismatches = r.diagnostics.filter((x) => x.code === 'value-type-mismatch');
    expect(mismatches.map((d) => rel(dir, d))).toEqual(['ctrlrun.yaml:5', 'ctrlrun.yaml:7', 'ctrlrun.yaml:9', 'ctrlrun.yaml:11', 'ctrlrun.yaml:13']);
    expect(mismatches[2]?.message).toContain('"gbp"');
    expect(mismatches.every((d) => d.related && rel(dir, d.related).startsWith('src/tools.ts:'))).toBe(true);
  });

  it('refuses a template placeholder that is not a required string or integer argument', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith(`effect: "r:{payment_id}:{note}:{maybe}:{live}:{ratio}:{nope}"\ndecision: allow`),
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(true);
    const t = r.diagnostics.filter((x) => x.code?.startsWith('template-'));
    expect(t.map((d) => d.message.match(/\{(\w+)\}/)?.[1])).toEqual(['live', 'maybe', 'nope', 'note', 'ratio']);
    expect(t.find((d) => d.message.includes('{note}'))?.message).toContain('optional');
    expect(t.find((d) => d.message.includes('{maybe}'))?.message).toContain('null');
    expect(t.find((d) => d.message.includes('{nope}'))?.code).toBe('template-unknown-argument');
    const nope = t.find((d) => d.message.includes('{nope}'));
    expect(nope?.hint).toBe('did you mean `note`?');
    expect(nope?.related?.message).toBe('tool `refund` declares its parameters here (payment_id, amount, ratio, currency, live, note, maybe, tags)');
    expect(t.every((d) => rel(dir, d) === 'ctrlrun.yaml:4' && d.related !== undefined)).toBe(true);
  });

  it('reports every error at once, with warnings, in a stable order', () => {
    const dir = repo({ 'ctrlrun.yaml': policyWith(`effect: "{nope}"\nrules:\n  - when: { a_eq: 1, tags_eq: x, ratio_gte: 1 }\n    decision: allow`) });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(true);
    expect(r.diagnostics.map((d) => `${d.severity}:${d.code}`)).toEqual([
      'error:template-unknown-argument',
      'error:unknown-argument',
      'warning:argument-type-unreadable',
      'error:non-integer-argument',
    ]);
    // Nothing near `a`: the hint lists the tool's arguments.
    expect(r.diagnostics.find((d) => d.code === 'unknown-argument')?.hint).toBe(
      'its arguments are `payment_id`, `amount`, `ratio`, `currency`, `live`, `note`, `maybe`, `tags`',
    );
    expect(diagnosticsOf(dir)).toEqual(r);
  });

  it('refuses a mapped function tool that no tool() call declares', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith('decision: allow'),
      'src/tools.ts': "import { tool } from 'ai';\nexport const refund = tool({ name: 'refund', parameters: {} });\n",
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(true);
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect(d.code).toBe('tool-not-found');
    expect(rel(dir, d)).toBe('ctrlrun.tools.yaml:6');
    expect(rel(dir, d.related!)).toBe('ctrlrun.yaml:3');
  });

  it('checks each of several declarations of one name, and warns (without guessing) on unreadable ones', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith('rules:\n  - when: { amount_lte: 5 }\n    decision: allow'),
      'src/more.ts': `import { tool } from '@openai/agents';
import { z } from 'zod';
import { schema } from './schema.js';
export const a = tool({ name: 'refund', description: 'd', parameters: z.object({ amount: z.string() }), execute: async () => '' });
export const b = tool({ name: 'refund', description: 'd', parameters: schema, execute: async () => '' });
`,
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(true);
    expect(r.diagnostics.map((d) => `${d.severity}:${d.code}:${rel(dir, d)}->${rel(dir, d.related!)}`)).toEqual([
      'error:non-integer-argument:ctrlrun.yaml:5->src/more.ts:4',
      'warning:parameters-unreadable:src/more.ts:5->ctrlrun.tools.yaml:6',
    ]);
  });

  it("the SDK's examples/standard-schema and examples/docs shapes (a Standard Schema from another library, inline or imported): a located warning with a hint, and the module is generated", () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith('rules:\n  - when: { amount_lte: 5 }\n    decision: allow'),
      'src/schemas.ts': "export const RefundParameters = { '~standard': { version: 1, vendor: 'valibot' } };\n",
      'src/tools.ts': [
        "import { tool } from '@openai/agents';",
        "import { toStandardJsonSchema } from '@valibot/to-json-schema';",
        "import * as v from 'valibot';",
        "import { RefundParameters } from './schemas.js';",
        "export const a = tool({ name: 'refund', description: 'd', parameters: toStandardJsonSchema(v.object({ amount: v.number() })), execute: async () => '' });",
        "export const b = tool({ name: 'refund', description: 'd', parameters: RefundParameters, execute: async () => '' });",
        '',
      ].join('\n'),
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(false);
    expect(r.diagnostics.map((d) => `${d.severity}:${d.code}:${rel(dir, d)}`)).toEqual([
      'warning:parameters-unreadable:src/tools.ts:5',
      'warning:parameters-unreadable:src/tools.ts:6',
    ]);
    expect(r.diagnostics[0]?.message).toContain('is neither a z.object({...}) nor a JSON-schema object literal');
    expect(r.diagnostics[1]?.message).toContain('`RefundParameters` is not a const bound in this file');
    for (const d of r.diagnostics) expect(d.hint).toMatch(/declare them in this file as z\.object/);
  });

  it('an unreadable declaration alone is a warning: the module is still generated', () => {
    const dir = repo({
      'ctrlrun.yaml': policyWith('rules:\n  - when: { whatever_lte: 5 }\n    decision: allow'),
      'src/tools.ts':
        "import { tool } from '@openai/agents';\nimport { schema } from './schema.js';\nexport const r = tool({ name: 'refund', description: 'd', parameters: schema, execute: async () => '' });\n",
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['parameters-unreadable']);
    expect(r.diagnostics[0]?.message).toContain('`schema` is not a const bound in this file');
  });
});

describe("CTRLRun's TLS pins (upstream.tls_cert_sha256, tls_cert_file) and the doors that can honour them", () => {
  const CERT = readFileSync(path.join(FIXTURES, 'policy/certs/upstream.pem'), 'utf8');
  const DIGEST = 'sha256:d685f535bdf0c0b02e991ba7f5eff2c55a927481e55877eb80fc9aa837cf9643';
  const pinned = (extra = '') =>
    `schema: ctrlrun.policy/v8\nactions:\n  stripe.refund:\n    decision: allow\n${extra}  github.create_issue:\n    decision: allow\n    upstream: { tls_cert_sha256: ["${DIGEST}"], tls_cert_file: certs/upstream.pem }\n`;

  it('a function tool mapped to a pinned action is refused by name, at the manifest entry, with a hint', () => {
    const dir = repo({
      'ctrlrun.yaml': pinned().replace(
        'stripe.refund:\n    decision: allow\n',
        `stripe.refund:\n    decision: allow\n    upstream: { tls_cert_sha256: "${DIGEST}" }\n`,
      ),
      'certs/upstream.pem': CERT,
    });
    const r = diagnosticsOf(dir);
    expect(r.refused).toBe(true);
    const d = r.diagnostics.find((x) => x.code === 'tls-pin-unobservable')!;
    expect(rel(dir, d)).toBe('ctrlrun.tools.yaml:6');
    expect(d.message).toContain('function tool `refund` is mapped to `stripe.refund`, whose `upstream` pins a TLS certificate');
    expect(d.message).toContain('`upstream_unverified`');
    expect(d.hint).toContain('upstreamFetch');
    expect(d.related?.message).toContain('stripe.refund');
  });

  it('an MCP tool mapped to a pinned action generates the pinned fetch: the certificate is in the module, upstreamFetch is exported', () => {
    const dir = repo({
      'ctrlrun.yaml': pinned(),
      'certs/upstream.pem': CERT,
      'ctrlrun.tools.yaml': `${MANIFEST}  - mcp: { server: github, tool: create_issue }\n    action: github.create_issue\n`,
    });
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    expect(generated.diagnostics).toEqual([]); // undici resolves (this repo's)
    expect(generated.text).toContain("import { createPinnedFetch } from 'ctrlrun-gen/runtime/upstream';");
    expect(generated.text).toContain('bindMcp(control, policy, { createPinnedFetch })');
    expect(generated.text).toContain("export const upstreamFetch: McpDoors['upstreamFetch'] = mcpDoors.upstreamFetch;");
    expect(generated.text).toContain(`tlsCertSha256: [${JSON.stringify(DIGEST).replace(/"/g, "'")}]`);
    expect(generated.text).toContain('-----BEGIN CERTIFICATE-----\\n');
    // the certificates are inputs of the module (the policy hash names only the file's path)
    const inputs = () => renderGeneratedModule(loadProject({ cwd: dir })).text.match(/inputs sha256:(\w+)/)![1];
    const before = inputs();
    writeFiles(dir, { 'certs/upstream.pem': `${CERT}\n` }); // the same certificate
    expect(inputs()).toBe(before);
    writeFiles(dir, { 'certs/upstream.pem': `${CERT}${CERT}` }); // another bundle
    expect(inputs()).not.toBe(before);
  });

  it('a repo where undici cannot be resolved gets a warning at the pinned entry (the module would not start)', () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-pins-'));
    dirs.push(outside);
    writeFiles(outside, {
      'ctrlrun.yaml': pinned(),
      'certs/upstream.pem': CERT,
      'ctrlrun.tools.yaml': `${MANIFEST}  - mcp: { server: github, tool: create_issue }\n    action: github.create_issue\n`,
      'src/tools.ts': TOOLS,
      'src/ctrlrun.control.ts': 'export default {};\n',
    });
    const warned = renderGeneratedModule(loadProject({ cwd: outside })).diagnostics;
    expect(warned.map((d) => `${d.severity} ${d.code} ${rel(outside, d)}`)).toEqual(['warning missing-undici ctrlrun.tools.yaml:8']);
    expect(warned[0]!.message).toContain('ctrlrun-gen/runtime/upstream, which needs the package `undici`');
    expect(warned[0]!.hint).toBe('npm install undici');
    mkdirSync(path.join(outside, 'node_modules'), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, 'node_modules', 'undici'), path.join(outside, 'node_modules', 'undici'), 'dir');
    expect(renderGeneratedModule(loadProject({ cwd: outside })).diagnostics).toEqual([]);
  });
});

// Issue 40, item 5: tools whose names the code computes, mapped by the place of the call
describe('generate checks a `tool: { at, in }` entry against the calls at its place', () => {
  const FLOWS = `import { tool } from '@openai/agents';
import { z } from 'zod';
const flows = ['sales', 'stock'];
export const flowTools = flows.map((f) =>
  tool({ name: \`flow_\${f}\`, description: f, parameters: z.object({ payment_id: z.string(), amount: z.number().int() }), execute: async () => 'ok' }),
);
export function other(kind: string) {
  return tool({ name: kind, description: kind, parameters: z.object({ id: z.string() }), execute: async () => 'ok' });
}
`;
  const manifest = (at: string) =>
    `schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - tool: ${at}\n    action: stripe.refund\n`;

  it("reads the parameters of the calls in the declaration, checks the policy's arguments against them, and names the patterns in the module", () => {
    const ok = repo({
      'ctrlrun.tools.yaml': manifest('{ at: src/flows.ts, in: flowTools, names: "flow_*" }'),
      'src/flows.ts': FLOWS,
      'ctrlrun.yaml': policyWith('effect: "refund:{payment_id}"\nrules:\n  - when: { amount_lte: 5 }\n    decision: allow\n  - decision: approve'),
    });
    const module = renderGeneratedModule(loadProject({ cwd: ok }));
    expect(module.text).toContain("  computedNames: {\n    'stripe.refund': ['flow_*'],\n  },");
    // `other`'s `id` is no argument of the flows: the `when` on it is refused, naming the place
    const bad = repo({
      'ctrlrun.tools.yaml': manifest('{ at: src/flows.ts, in: flowTools }'),
      'src/flows.ts': FLOWS,
      'ctrlrun.yaml': policyWith('rules:\n  - when: { id_eq: "x" }\n    decision: allow\n  - decision: approve'),
    });
    const r = diagnosticsOf(bad);
    // the entry's own error leaves its tools unprotected (keyed by its place), not the module
    expect(r.refused).toBe(true);
    expect(r.leftOut).toEqual(['@src/flows.ts#flowTools']);
    expect(r.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([
      'unknown-argument: `id_eq` tests the argument `id`, which the tool() at `src/flows.ts#flowTools` does not have',
    ]);
  });

  it('refuses a place with no tool() whose name is computed (a declaration of literal names, a file without one)', () => {
    for (const at of ['{ at: src/flows.ts, in: nothingHere }', '{ at: src/tools.ts }']) {
      const dir = repo({ 'ctrlrun.tools.yaml': manifest(at), 'src/flows.ts': FLOWS, 'ctrlrun.yaml': policyWith('decision: approve') });
      const r = diagnosticsOf(dir);
      expect(r.refused, at).toBe(true);
      expect(r.leftOut, at).toEqual([at.includes('nothingHere') ? '@src/flows.ts#nothingHere' : '@src/tools.ts']);
      expect(r.diagnostics.map((d) => d.code)).toEqual(['tool-not-found']);
      expect(r.diagnostics[0]!.message).toContain('no tool() call whose name is computed was found there');
    }
  });
});
