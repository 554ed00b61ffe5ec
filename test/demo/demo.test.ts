import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/paths.js';

describe('ctrlrun-gen demo', () => {
  it('walks the whole loop on the bundled sample and exits 0', async () => {
    const r = await cli(['demo'], { cwd: REPO_ROOT });
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
    expect(out).toMatch(/receipts, chain intact/);
    expect(process.cwd()).toBe(REPO_ROOT);
  });
});
