import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, type CliResult } from '../helpers/cli.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';

let demo: CliResult;
beforeAll(async () => {
  demo = await cli(['demo'], { cwd: REPO_ROOT });
}, 300_000);

describe('ctrlrun-gen demo', () => {
  it('walks the whole loop on the bundled sample and exits 0', () => {
    const r = demo;
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = r.stdout;
    // generate, the diff, the rewrite, a passing check
    expect(out).toContain('wrote src/ctrlrun.generated.ts');
    expect(out).toContain("+export const refund = protectedTool('stripe.refund', {");
    expect(out).toContain('Dry run: nothing written.');
    expect(out).toContain('✔ no findings');
    // allowed runs once; denied never runs and the model is not invited to retry
    expect(out).toMatch(/pay_1001.*the tool answered "Refunded 4500 cents/);
    expect(out).toMatch(/pay_1003.*the model read "The call to stripe\.refund was refused.*must not be retried/);
    expect(out).not.toContain('Please try again');
    // pause, the requester refused, a second person approves, another process runs it once
    expect(out).toContain('call_large  pending  stripe.refund');
    expect(out).toMatch(/cannot approve/i);
    expect(out).toContain('Approved call_large (stripe.refund) as bob@payments.example');
    expect(out).toMatch(/a new process restores the saved state and resumes: ran, the tool answered "Refunded 250000 cents on pay_1002/);
    expect(out).toContain('nothing ran; still exactly one refund');
    // an MCP tool (a real MCP server on 127.0.0.1): allowed runs once on the server; a larger call pauses
    // before the server is called, a second person approves, another process runs it once; a replay runs nothing
    expect(out).toContain("An MCP server's tool pauses for a person too");
    expect(out).toMatch(/issue_credit 300 cents to acct_7 .*the MCP server answered "Credited 300 cents to acct_7\."/);
    expect(out).toContain('credit_large  pending  support.issue_credit');
    expect(out).toContain('Approved credit_large (support.issue_credit) as bob@payments.example');
    expect(out).toMatch(
      /a new process \(its own MCP client\) restores the saved state and resumes: ran, the MCP server answered "Credited 2000 cents to acct_7\."/,
    );
    expect(out).toMatch(/support\.issue_credit was refused \(its approval was already used/);
    expect(out).toContain('nothing ran; the MCP server credited acct_7 twice in all');
    expect(out).toMatch(/receipts, chain intact/);
    expect(process.cwd()).toBe(REPO_ROOT);
  });

  // The README shows the demo's steps 6 and 7 verbatim: each line as the demo prints it, none
  // left out, none added. Only what changes from run to run is masked on both sides (a timestamp,
  // the chain head's hash).
  it("the README's demo transcript is what the demo prints", () => {
    expect(demo.code).toBe(0);
    const block = readmeBlock('```text\n6. Run the agent');
    const printed = demo.stdout.split('\n');
    const from = printed.findIndex((line) => line.startsWith('6. Run the agent'));
    expect(from, 'the demo prints a step 6').toBeGreaterThan(0);
    expect(mask(block)).toEqual(mask(printed.slice(from).join('\n').trimEnd()));
    // Journey 6's `receipts verify` line is the demo's count too.
    const verify = /^\$ npx ctrlrun-gen receipts verify\n(.*)$/m.exec(readme().split('### 6. `explain`')[1] ?? '')?.[1];
    const demoVerify = printed.find((line) => line.includes('receipts, chain intact'))?.replace(/^\s*│ /, '');
    expect(mask(verify ?? 'missing')).toBe(mask(demoVerify ?? 'missing in the demo'));
  });

  it("the README's explain example is what explain prints on the sample", async () => {
    const command = '$ npx ctrlrun-gen explain stripe.refund --args \'{"payment_id": "pay_123", "amount": 50000}\'';
    const section = readme().split('### 6. `explain`')[1] ?? '';
    const shown = section.slice(section.indexOf(command) + command.length + 1, section.indexOf('\n$ npx ctrlrun-gen receipts verify'));
    const r = await cli(['explain', 'stripe.refund', '--args', '{"payment_id": "pay_123", "amount": 50000}'], { cwd: path.join(FIXTURES, 'refund-desk') });
    expect(r.code).toBe(0);
    expect(mask(shown.trimEnd())).toBe(mask(r.stdout.trimEnd()));
  });
});

function readme(): string {
  return readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
}

/** The text of the fenced block of README.md that starts with `opening` (without the fence lines). */
function readmeBlock(opening: string): string {
  const text = readme();
  const start = text.indexOf(opening);
  expect(start, `README.md has a block starting ${JSON.stringify(opening)}`).toBeGreaterThan(0);
  const body = start + opening.indexOf('\n') + 1;
  return text.slice(body, text.indexOf('\n```', body));
}

/** What differs between two honest runs: timestamps, the receipt chain's head, the policy hash (its own tests pin it). */
function mask(text: string): string {
  return text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>')
    .replace(/head [0-9a-f]{16}…/g, 'head <hash>…')
    .replace(/hash [0-9a-f]{64}/g, 'hash <policy-hash>');
}
