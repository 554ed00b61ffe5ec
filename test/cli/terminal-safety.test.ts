import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MARK_NOTE, terminalJson, terminalSafe } from '../../src/terminal-text.js';
import { cli } from '../helpers/cli.js';
import { request, requestedReceipt, tempRepo, withSqlite } from './operator-helpers.js';

const ESC = '\u001b';
/** What an attacker-chosen effect key / argument / error text looks like. */
const FORGED_KEY = `refund:pi_1${ESC}[2J${ESC}[H\nrefund:pi_2  committed  stripe.refund`;
const BIDI_ARG = 'pay_1\u202egnp.exe';

/** No byte a terminal obeys: no ESC/C0/C1 (but the newlines of our own layout), no bidi or invisible character. */
function expectTerminalInert(text: string) {
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
}

describe('operator terminals: stored text is printed escaped and marked', () => {
  let repo: ReturnType<typeof tempRepo>;
  const run = (args: string[]) => cli(args, { cwd: repo.nested, env: { NO_COLOR: '1' } });

  beforeEach(async () => {
    repo = tempRepo();
    await withSqlite(repo.dbPath, async (store) => {
      await store.putRequest(request(`call_x${ESC}]0;pwned${ESC}\\`, { args: JSON.stringify({ payment_id: BIDI_ARG, note: `a\nb${ESC}[31m` }), createdAt: 1 }));
      await store.putRequest(request('call_plain'));
      await store.appendReceipt({ ...requestedReceipt('call_plain'), reason: `boom${ESC}[2K\n2  x  stripe.refund  approve  executed`, effect_key: FORGED_KEY });
      await store.reserveEffect({ key: FORGED_KEY, action: 'stripe.refund', attemptId: 'a1', maxAttempts: 1, now: Date.now(), leaseMs: 60_000 });
    });
  });
  afterEach(() => rmSync(repo.root, { recursive: true, force: true }));

  it('approvals list: the forged id and bidi/ESC arguments are escaped, marked, one row each, with a note', async () => {
    const r = await run(['approvals', 'list']);
    expect(r.code).toBe(0);
    expectTerminalInert(r.stdout);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4); // header, two rows, the note
    expect(lines[1]).toContain('«call_x\\u{1b}]0;pwned\\u{1b}\\\\»');
    expect(r.stdout).toContain('\\u{202e}');
    expect(lines.at(-1)).toBe(MARK_NOTE);
    expect(lines[2]).toMatch(/^call_plain\s+pending/); // clean text unchanged
  });

  it('approvals show and list --json: escaped too (JSON stays valid and equal)', async () => {
    const show = await run(['approvals', 'show', `call_x${ESC}]0;pwned${ESC}\\`]);
    expect(show.code).toBe(0);
    expectTerminalInert(show.stdout);
    expect(show.stdout).toContain(MARK_NOTE);
    const json = await run(['approvals', 'list', '--json']);
    expectTerminalInert(json.stdout);
    const parsed = JSON.parse(json.stdout) as Array<{ callId: string; args: string }>;
    expect(parsed[0]!.callId).toBe(`call_x${ESC}]0;pwned${ESC}\\`);
    expect(JSON.parse(parsed[0]!.args).payment_id).toBe(BIDI_ARG);
  });

  it('effects list and receipts list: a key or reason with ESC and a newline cannot forge a row', async () => {
    for (const args of [
      ['effects', 'list'],
      ['receipts', 'list'],
      ['effects', 'list', '--json'],
      ['receipts', 'list', '--json'],
    ]) {
      const r = await run(args);
      expect(r.code).toBe(0);
      expectTerminalInert(r.stdout);
      if (!args.includes('--json')) {
        expect(r.stdout.trimEnd().split('\n')).toHaveLength(3); // header, one row, the note
        expect(r.stdout).toContain('«refund:pi_1\\u{1b}[2J\\u{1b}[H\\u{a}refund:pi_2  committed  stripe.refund»');
      }
    }
  });

  it('--as and --reason with a newline, ESC or bidi character are refused (exit 2); nothing is recorded', async () => {
    for (const args of [
      ['approvals', 'approve', 'call_plain', '--as', 'bob\napproved by security-team'],
      ['approvals', 'approve', 'call_plain', '--as', 'bob', '--reason', `ok${ESC}[2J`],
      ['approvals', 'deny', 'call_plain', '--as', 'bob', '--reason', 'no\u202e'],
      ['effects', 'resolve', FORGED_KEY, '--failed', '--as', 'carol\r'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--(as|reason): holds a control, invisible or bidi character/);
    }
    await withSqlite(repo.dbPath, async (store) => expect((await store.getRequest('call_plain'))?.answers).toEqual([]));
  });

  it('--as is normalised like every identity: ALICE is the requester alice; BOB after bob is the same person', async () => {
    const own = await run(['approvals', 'approve', 'call_plain', '--as', '\uff21LICE']);
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('is who the run acts for');
    await withSqlite(repo.dbPath, async (store) => store.putRequest(request('call_two', { approvalsRequired: 2 })));
    expect((await run(['approvals', 'approve', 'call_two', '--as', 'bob'])).code).toBe(0);
    const again = await run(['approvals', 'approve', 'call_two', '--as', 'BOB ']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already answered');
  });
});

describe('terminalSafe / terminalJson', () => {
  it('leaves clean text alone and escapes backslashes of marked text (an escape cannot be forged)', () => {
    expect(terminalSafe('refund:pi_1')).toEqual({ text: 'refund:pi_1', marked: false });
    expect(terminalSafe('a\\u{1b}\u0007')).toEqual({ text: '«a\\\\u{1b}\\u{7}»', marked: true });
    expect(terminalSafe('looks «marked»').marked).toBe(true);
  });
  it('terminalJson escapes C1, bidi and invisible characters but keeps the value', () => {
    const value = { k: `\u009b2J\u202e\u200b\u{e0041}x` };
    const out = terminalJson(value);
    expectTerminalInert(out);
    expect(out).not.toMatch(/[\u{e0000}-\u{e007f}]/u);
    expect(JSON.parse(out)).toEqual(value);
  });
});

describe('terminalSafe / terminalJson: property tests (fixed time budget)', () => {
  const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u;
  const text = fc.string({
    unit: fc.oneof(
      fc.constantFrom('\u001b', '\n', '\r', '\u009b', '\u202e', '\u2066', '\u200b', '\\', '«', '»', '\ud800'),
      fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
    ),
    maxLength: 40,
  });
  it('any stored text prints with no character a terminal obeys; clean text is unchanged', () => {
    fc.assert(
      fc.property(text, (s) => {
        const out = terminalSafe(s);
        expect(UNSAFE.test(out.text)).toBe(false);
        if (!out.marked) expect(out.text).toBe(s);
      }),
      { numRuns: 2_000, interruptAfterTimeLimit: 2_000 },
    );
  });
  it('two different texts never print the same (escaping is one-to-one)', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        fc.pre(a !== b);
        expect(terminalSafe(a).text).not.toBe(terminalSafe(b).text);
      }),
      { numRuns: 2_000, interruptAfterTimeLimit: 2_000 },
    );
  });
  it('terminalJson keeps every value and prints no unsafe character but its own newlines', () => {
    fc.assert(
      fc.property(fc.dictionary(text, text, { maxKeys: 4 }), (value) => {
        const out = terminalJson(value);
        expect(/(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u.test(out)).toBe(false);
        expect(JSON.parse(out)).toEqual(value);
      }),
      { numRuns: 1_000, interruptAfterTimeLimit: 2_000 },
    );
  });
});
