import { describe, expect, it } from 'vitest';
import { type CallOutcome, outcomeKey } from '../../src/policy/exact/model.js';
import { parsePolicy } from '../../src/policy/load.js';
import type { Policy } from '../../src/policy/types.js';
import { classify } from '../../src/policy-test/classify.js';
import { actionSettings, policySettings } from '../../src/policy-test/diff-settings.js';

// The classifier decides what fails the gate (`--fail-on looser`): each way a call's outcome, or a
// setting, can move, and the class it gets. Looser wins over tighter when a change does both.

const base: CallOutcome = {
  decision: 'approve',
  reason: 'rule[1]',
  rule: 1,
  controls: ['payments-approval'],
  approvals: 2,
  roles: ['payments-approver'],
  grant: 'support',
  budgets: ['amount/50000/86400'],
  deniedBy: null,
};
const deny: CallOutcome = {
  ...base,
  decision: 'deny',
  reason: null,
  rule: null,
  controls: [],
  approvals: null,
  roles: null,
  grant: null,
  budgets: [],
  deniedBy: 'rules',
};
const allow: CallOutcome = { ...base, decision: 'allow', approvals: null, roles: null };
const cls = (after: Partial<CallOutcome>, before: CallOutcome = base) => classify(before, { ...before, ...after });

describe('a call whose outcome changes', () => {
  it('decisions: deny < approve < allow', () => {
    expect(classify(deny, base)).toEqual({ class: 'looser', what: ['deny → approve'] });
    expect(classify(deny, allow).class).toBe('looser');
    expect(classify(base, allow).class).toBe('looser');
    expect(classify(allow, base)).toEqual({ class: 'tighter', what: ['allow → approve'] });
    expect(classify(base, deny).class).toBe('tighter');
  });

  it('approvals_required: fewer is looser, more tighter', () => {
    expect(cls({ approvals: 1 })).toEqual({ class: 'looser', what: ['approvals_required 2 → 1'] });
    expect(cls({ approvals: 3 }).class).toBe('tighter');
  });

  it('approver roles: one dropped or handed to another is looser, one added tighter', () => {
    expect(cls({ roles: ['intern'] })).toEqual({ class: 'looser', what: ['approver roles payments-approver → intern'] });
    expect(cls({ roles: [] }).class).toBe('looser');
    expect(cls({ roles: ['payments-approver', 'risk'] }).class).toBe('tighter');
  });

  it('budgets: gone, raised or refilled sooner is looser; a new or lower one tighter', () => {
    expect(cls({ budgets: [] }).class).toBe('looser');
    expect(cls({ budgets: ['amount/60000/86400'] }).class).toBe('looser');
    expect(cls({ budgets: ['amount/50000/3600'] }).class).toBe('looser');
    expect(cls({ budgets: ['count/5/86400'] }).class).toBe('looser');
    expect(cls({ budgets: ['amount/40000/86400'] }).class).toBe('tighter');
    expect(cls({ budgets: ['amount/50000/86400', 'count/5/3600'] }).class).toBe('tighter');
    expect(cls({ budgets: ['amount/50000/604800'] }).class).toBe('tighter');
    expect(cls({ budgets: ['amount/50000/86400'] }, { ...base, budgets: [] }).class).toBe('tighter');
  });

  it('budgets kept under another grant id (a renamed grant) start from nothing spent: looser, whatever the limits', () => {
    expect(cls({ grant: 'support-2026' })).toEqual({
      class: 'looser',
      what: ['budgets kept under grant support → under grant support-2026: the spend so far is not counted (budgets amount/50000/86400 → amount/50000/86400)'],
    });
    expect(cls({ grant: 'support-2026', budgets: ['amount/10/86400'] }).class).toBe('looser');
    // a grant with no budget keeps no ledger: its id alone changes nothing a call may do
    const unbudgeted = { ...base, budgets: [] };
    expect(outcomeKey({ ...unbudgeted, grant: 'support-2026' })).toBe(outcomeKey(unbudgeted));
    // one with a budget does: the procedure reports the calls it authorizes
    expect(outcomeKey({ ...base, grant: 'support-2026' })).not.toBe(outcomeKey(base));
  });

  it('what changes only the record (the matched rule, the controls cited) is other', () => {
    expect(cls({ reason: 'rule[0]', rule: 0 })).toEqual({ class: 'other', what: ['approve by rule[1] → by rule[0]'] });
    expect(cls({ controls: [] })).toEqual({ class: 'other', what: ['controls payments-approval → none'] });
  });

  it('looser wins over tighter', () => {
    expect(cls({ approvals: 3, roles: ['intern'] }).class).toBe('looser');
    expect(cls({ approvals: 1, budgets: ['amount/1/86400'] }).class).toBe('looser');
  });
});

function action(yaml: string, version = 8): Policy {
  const loaded = parsePolicy(`schema: ctrlrun.policy/v${version}\nactions:\n  pay:\n${yaml}    decision: approve\n`, '/p/ctrlrun.yaml');
  if (!loaded.value) throw new Error(JSON.stringify(loaded.diagnostics));
  return loaded.value;
}
const settings = (a: string, b: string) => actionSettings(action(a).actions['pay']!, action(b).actions['pay']!).map((s) => [s.field, s.class]);

describe('a setting that changes', () => {
  it('effect: a new dependency on a model-chosen argument, other keys rendered, or no key at all is looser; a new key tighter', () => {
    expect(settings('    effect: "pay:{id}"\n', '    effect: "pay:{id}:{nonce}"\n')).toEqual([['effect', 'looser']]);
    expect(settings('    effect: "pay:{id}"\n', '')).toEqual([['effect', 'looser']]);
    expect(settings('', '    effect: "pay:{id}"\n')).toEqual([['effect', 'tighter']]);
    // the store finds an effect that ran by its key: a renamed literal, or one argument fewer, renders
    // keys nothing was recorded under, so every effect that already ran can run once more
    expect(settings('    effect: "pay:{id}"\n', '    effect: "payment:{id}"\n')).toEqual([['effect', 'looser']]);
    expect(settings('    effect: "pay:{id}:{nonce}"\n', '    effect: "pay:{id}"\n')).toEqual([['effect', 'looser']]);
    // another spelling of the same keys (through `{resource}`) renders what it did: not looser
    expect(settings('    effect: "pay:{id}"\n', '    resource: "pay:{id}"\n    effect: "{resource}"\n')).toEqual([
      ['effect', 'other'],
      ['resource', 'tighter'],
    ]);
    expect(settings('    resource: "p:{id}"\n    effect: "pay:{resource}"\n', '    effect: "pay:p:{id}"\n')[0]).toEqual(['effect', 'other']);
    // `{resource}` stands for the resource's arguments
    expect(settings('    resource: "p:{id}"\n    effect: "pay:{resource}"\n', '    resource: "p:{id}:{nonce}"\n    effect: "pay:{resource}"\n')).toEqual([
      ['effect', 'looser'],
      ['resource', 'looser'],
    ]);
  });

  it('max_attempts: more or no ceiling is looser, fewer tighter', () => {
    expect(settings('    max_attempts: 2\n', '    max_attempts: 3\n')).toEqual([['max_attempts', 'looser']]);
    expect(settings('    max_attempts: 2\n', '')).toEqual([['max_attempts', 'looser']]);
    expect(settings('    max_attempts: 3\n', '    max_attempts: 2\n')).toEqual([['max_attempts', 'tighter']]);
    expect(settings('', '    max_attempts: 2\n')).toEqual([['max_attempts', 'tighter']]);
  });

  it('data labels: an argument no longer labelled is looser (kept in clear), a new label tighter', () => {
    expect(settings('    data: { note: pii }\n', '')).toEqual([['data', 'looser']]);
    expect(settings('', '    data: { note: pii }\n')).toEqual([['data', 'tighter']]);
    expect(settings('    data: { note: pii }\n', '    data: { note: phi }\n')).toEqual([['data', 'other']]);
  });

  it('upstream pins: a pin gone or a new certificate trusted is looser, a new pin tighter', () => {
    const pin = (d: string) => `    upstream: { tls_cert_sha256: "sha256:${d.repeat(64)}" }\n`;
    expect(settings(pin('a'), '')).toEqual([['upstream', 'looser']]);
    expect(settings(pin('a'), pin('b'))).toEqual([['upstream', 'looser']]);
    expect(settings('', pin('a'))).toEqual([['upstream', 'tighter']]);
  });

  it('mcp not_executed_on_error: turned on is looser (an error result may be tried again)', () => {
    expect(settings('', '    mcp: { not_executed_on_error: true }\n')).toEqual([['mcp.not_executed_on_error', 'looser']]);
    expect(settings('    mcp: { not_executed_on_error: true }\n', '')).toEqual([['mcp.not_executed_on_error', 'tighter']]);
  });

  it('mode: observe is looser, enforce tighter; a grant or a control changed is other (its calls are the regions)', () => {
    const p = (top: string) => parsePolicy(`schema: ctrlrun.policy/v6\n${top}actions:\n  pay:\n    decision: approve\n`, '/p/ctrlrun.yaml').value!;
    expect(policySettings(p(''), p('mode: observe\n')).map((s) => [s.field, s.class])).toEqual([['mode', 'looser']]);
    expect(policySettings(p('mode: observe\n'), p('')).map((s) => [s.field, s.class])).toEqual([['mode', 'tighter']]);
    // no policy before: observe mode is looser than every call denied
    expect(policySettings(null, p('mode: observe\n')).map((s) => [s.field, s.class])).toEqual([['mode', 'looser']]);
    const c = (role: string) => `controls:\n  c1: { title: t, approver_role: ${role} }\n`;
    expect(policySettings(p(c('a')), p(c('b'))).map((s) => [s.field, s.class])).toEqual([['control c1', 'other']]);
  });
});
