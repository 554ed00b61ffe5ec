import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir, writeFiles } from '../helpers/temp-repo.js';

// Issue 36's "what was seen": a project (manifest, tools, policy with grants and a control) and the
// pull-request changes a reviewer tried, each of which loosens who may do what.

export const MANIFEST = `schema: ctrlrun.tools/v1
policy: ctrlrun.yaml
output: src/ctrlrun.generated.ts
control: src/ctrlrun.control.ts
tools:
  - tool: refund
    action: stripe.refund
  - tool: pay
    action: payments.pay
  - tool: close_account
    action: accounts.close
`;

export const TOOLS = `import { tool } from '@openai/agents';
import { z } from 'zod';

export const refund = tool({
  name: 'refund',
  description: 'Refund a charge (cents).',
  parameters: z.object({ payment_id: z.string(), amount: z.number().int().nonnegative(), nonce: z.string() }),
  execute: async () => 'refunded',
});
export const pay = tool({
  name: 'pay',
  description: 'Pay an invoice with a fee (cents).',
  parameters: z.object({ amount: z.number().int().nonnegative(), fee: z.number().int().nonnegative() }),
  execute: async () => 'paid',
});
export const closeAccount = tool({
  name: 'close_account',
  description: 'Close an account.',
  parameters: z.object({ account: z.string() }),
  execute: async () => 'closed',
});
`;

export const POLICY = `schema: ctrlrun.policy/v7
controls:
  payments-approval:
    title: A refund above the band is approved by payments
    approver_role: payments-approver
authority:
  grants:
    - id: support-refunds
      subject: { agent: support }
      actions: [stripe.refund]
      constraints: { amount_lte: 10000 }
      budgets:
        - { metric: amount, limit: 50000, window: PT24H }
    - id: ops
      subject: { agent: ops }
      actions: [payments.pay, accounts.close]
actions:
  stripe.refund:
    effect: "refund:{payment_id}"
    controls: [payments-approval]
    rules:
      - when: { amount_lte: 5000 }
        decision: allow
      - decision: approve
  payments.pay:
    rules:
      - when: { amount_lte: 599 }
        decision: allow
      - when: { fee_lte: 599 }
        decision: allow
      - decision: deny
  accounts.close:
    decision: deny
`;

/** A pull request's change: the policy text replaced, or a function that edits the repo. */
export const LOOSENINGS: Record<string, (dir: string) => void> = {
  'the policy moved (manifest updated), every deny and approve now allow': (dir) => {
    mkdirSync(path.join(dir, 'policy'));
    renameSync(path.join(dir, 'ctrlrun.yaml'), path.join(dir, 'policy/ctrlrun.yaml'));
    writeFileSync(path.join(dir, 'ctrlrun.tools.yaml'), MANIFEST.replace('policy: ctrlrun.yaml', 'policy: policy/ctrlrun.yaml'));
    writeFileSync(path.join(dir, 'policy/ctrlrun.yaml'), POLICY.replace(/decision: (deny|approve)/g, 'decision: allow'));
  },
  'a grant widened to any agent, any action, a larger amount and no budget': (dir) =>
    writeFileSync(
      path.join(dir, 'ctrlrun.yaml'),
      POLICY.replace('subject: { agent: support }', 'subject: { agent: "*" }')
        .replace('actions: [stripe.refund]\n', 'actions: ["**"]\n')
        .replace('amount_lte: 10000 }', 'amount_lte: 100000000000 }')
        .replace('      budgets:\n        - { metric: amount, limit: 50000, window: PT24H }\n', ''),
    ),
  "a control's approver_role handed to an intern": (dir) =>
    writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY.replace('approver_role: payments-approver', 'approver_role: intern')),
  'a deny lifted only where amount and fee both reach 600': (dir) =>
    writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY.replace('      - decision: deny\n  accounts.close', '      - decision: allow\n  accounts.close')),
  'the effect key now depends on a nonce the model chooses': (dir) =>
    writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY.replace('effect: "refund:{payment_id}"', 'effect: "refund:{payment_id}:{nonce}"')),
  // the red team's: the policy untouched, the refund tool pointed at an action ops may run unasked
  'the refund tool mapped to another action in the manifest, the policy untouched': (dir) =>
    writeFileSync(
      path.join(dir, 'ctrlrun.tools.yaml'),
      MANIFEST.replace('  - tool: refund\n    action: stripe.refund', '  - tool: refund\n    action: payments.pay'),
    ),
  'the effect key literal renamed (every recorded refund can run once more)': (dir) =>
    writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY.replace('effect: "refund:{payment_id}"', 'effect: "refund-v2:{payment_id}"')),
  'the grant with a budget renamed (its spend so far forgotten)': (dir) =>
    writeFileSync(path.join(dir, 'ctrlrun.yaml'), POLICY.replace('- id: support-refunds', '- id: support-refunds-2026')),
};

/** A repository whose `main` holds the project, and a working tree changed by `change` on a branch (committed). */
export function pullRequest(change: (dir: string) => void, dirs: string[]): string {
  const dir = makeTempDir('diff-seen-');
  dirs.push(dir);
  writeFiles(dir, { 'ctrlrun.tools.yaml': MANIFEST, 'ctrlrun.yaml': POLICY, 'src/tools.ts': TOOLS });
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'base');
  git('checkout', '-qb', 'change');
  change(dir);
  git('add', '-A');
  git('commit', '-qm', 'change');
  return dir;
}
