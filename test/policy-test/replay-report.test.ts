import { describe, expect, it } from 'vitest';
import type { Policy } from '../../src/policy/types.js';
import type { CallDecision } from '../../src/runtime/types.js';
import type { RecordedCall } from '../../src/policy-test/calls-file.js';
import { briefHashes, formatReplay } from '../../src/policy-test/replay-report.js';
import type { ReplayResult } from '../../src/policy-test/replay.js';

const mac = `hmac-sha256:${'0123456789ab'}${'c'.repeat(52)}`;
const call: RecordedCall = {
  line: 4,
  action: 'process_refund',
  argsText: `{"amount":13997,"reason":"${mac}"}`,
  hashed: ['reason'],
  principal: null,
  environment: null,
  task: null,
  at: null,
  recorded: { decision: 'approve', reason: 'rule[1]' },
  callId: 'c3',
  answer: 'approved by bob, used',
};
const decided = (decision: 'allow' | 'approve', rule: number): CallDecision => ({
  decision,
  rule,
  reason: `rule[${rule}]` as CallDecision['reason'],
  effectKey: null,
  resource: null,
});
const result: ReplayResult = {
  candidate: { hash: `sha256:${'e'.repeat(64)}` } as Policy,
  replayed: 1,
  unchanged: 0,
  changes: [
    {
      action: 'process_refund',
      before: 'approve',
      after: 'allow',
      reason: 'rule[0]',
      looser: true,
      count: 1,
      example: { call, before: decided('approve', 1), after: decided('allow', 0) },
    },
  ],
  undecidable: [],
  summary: { changed: 1, looser: 1, tighter: 0, undecidable: 0 },
};

describe("replay's report of a store's calls", () => {
  it('text and markdown show a keyed hash by its first 12 digits and the paused call its answer; JSON keeps both whole', () => {
    const labels = { candidate: 'next.yaml', calls: 'sqlite:state.db', unit: 'entry' as const };
    const text = formatReplay(result, 'text', labels);
    expect(text).toContain('e.g. entry 4: {"amount":13997,"reason":"hmac-sha256:0123456789ab…"} (answered: approved by bob, used)');
    const markdown = formatReplay(result, 'markdown', labels);
    expect(markdown).toContain('hmac-sha256:0123456789ab…');
    expect(markdown).toContain('(answered: approved by bob, used)');
    expect(`${text}${markdown}`).not.toContain('c'.repeat(52));
    const json = JSON.parse(formatReplay(result, 'json', labels));
    expect(json.changes[0].example).toMatchObject({ arguments: call.argsText, answer: 'approved by bob, used', callId: 'c3' });
  });

  it('briefHashes leaves anything but a whole keyed hash as it is', () => {
    expect(briefHashes(`x ${mac} y`)).toBe('x hmac-sha256:0123456789ab… y');
    const full = `hmac-sha256:abc sha256:${'d'.repeat(64)}`;
    expect(briefHashes(full)).toBe(full);
  });
});
