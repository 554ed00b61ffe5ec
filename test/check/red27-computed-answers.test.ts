import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { TOOLS } from './red27-apps.js';

/**
 * Gap A of the session 27 red team (issue 40 item 4): the SDK's answer with its method named by a
 * key, `result.state[verdict](item)`. The codemod counts the same answers, so each one reported
 * here is also a conflict that keeps the tool from being rewritten into ApprovalMismatch.
 */

/** A server that runs the agent of TOOLS and answers its interruptions with `body` (line 4 on). */
const server = (...body: string[]): Record<string, string> => ({
  'src/tools.ts': TOOLS,
  'src/server.ts': lines(
    "import { Agent, run, RunState } from '@openai/agents';",
    "import { refund } from './tools.js';",
    "const agent = new Agent({ name: 'desk', instructions: 'Help with payments.', tools: [refund] });",
    ...body,
  ),
});

/** A helper whose receiver is an untyped parameter (taken for a run's state only when the key may name an answer), its call at line 4. */
const helper = (params: string, key: string, ...before: string[]): Record<string, string> => ({
  'src/tools.ts': TOOLS,
  'src/answer.ts': lines(...before, `export function answer(state: any, item: any, ${params}) {`, `  state[${key}](item);`, '}'),
});

const findings = (files: Record<string, string>, file: string, ruleId = 'sdk-approval') => lintRepo(files, { project: testProject(), ruleId, file });

interface Reported {
  files: Record<string, string>;
  file: string;
  line: number;
  /** sdk-approval unless said. */
  ruleId?: string;
}

const reported: Record<string, Reported> = {
  'the method picked by a ternary held in a `const` (`result.state[verdict](item)`)': {
    files: server(
      'export async function handle(input: string, decide: (name: string) => Promise<boolean>) {',
      '  let result = await run(agent, input);',
      '  while (result.interruptions.length > 0) {',
      '    for (const item of result.interruptions) {',
      "      const verdict = (await decide(item.name ?? '')) ? 'approve' : 'reject';",
      '      result.state[verdict](item);',
      '    }',
      '    result = await run(agent, result.state);',
      '  }',
      '  return result.finalOutput;',
      '}',
    ),
    file: 'src/server.ts',
    line: 9,
  },
  "the method named by a parameter typed `'approve' | 'reject'`": {
    files: server(
      "export async function answer(decision: 'approve' | 'reject') {",
      "  const r = await run(agent, 'refund my last payment');",
      '  for (const i of r.interruptions) r.state[decision](i);',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  "a literal key (`r.state['reject'](i, { message })`)": {
    files: server(
      'export async function refuseAll() {',
      "  const r = await run(agent, 'refund my last payment');",
      "  for (const i of r.interruptions) r.state['reject'](i, { message: 'not today' });",
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  'a realtime session answered by a computed key (`session[verdict](request.approvalItem)`)': {
    files: {
      'src/tools.ts': TOOLS,
      'src/voice.ts': lines(
        "import { RealtimeAgent, RealtimeSession } from '@openai/agents/realtime';",
        "import { refund } from './tools.js';",
        "const agent = new RealtimeAgent({ name: 'voice', tools: [refund] });",
        'const session = new RealtimeSession(agent);',
        'declare function ask(): Promise<boolean>;',
        "session.on('tool_approval_requested', async (_ctx, _agent, request) => {",
        "  const verdict = (await ask()) ? 'approve' : 'reject';",
        '  await session[verdict](request.approvalItem);',
        '});',
      ),
    },
    file: 'src/voice.ts',
    line: 8,
  },
  // a key check cannot read may be any method: on the SDK's own receiver it counts (fail closed)
  'a key typed `string` on a run’s state': {
    files: server(
      'export async function answer(decision: string) {',
      "  const r = await run(agent, 'refund my last payment');",
      '  for (const i of r.interruptions) (r.state as any)[decision](i);',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  // on a helper's untyped receiver, only a key read as naming an answer counts: each form of it
  'a helper: a ternary of literals': { files: helper('yes: boolean', "yes ? 'approve' : 'reject'"), file: 'src/answer.ts', line: 2 },
  "a helper: `choice ?? 'reject'`": { files: helper("choice: 'approve' | undefined", "choice ?? 'reject'"), file: 'src/answer.ts', line: 2 },
  'a helper: a `const` holding the key': {
    files: helper('yes: boolean', 'verdict', "const verdict = 'approve';"),
    file: 'src/answer.ts',
    line: 3,
  },
  'a helper: a parameter typed by an alias of the file (`type Verdict = ...`)': {
    files: helper('verdict: Verdict', 'verdict', "type Verdict = ('approve' | 'reject') | null;"),
    file: 'src/answer.ts',
    line: 3,
  },
  // the method called indirectly, its this-argument the receiver
  '`.call` of the method (`r.state.approve.call(r.state, i)`)': {
    files: server(
      'export async function approveAll() {',
      "  const r = await run(agent, 'refund my last payment');",
      '  for (const i of r.interruptions) r.state.approve.call(r.state, i);',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  '`.apply` of the method (`r.state.reject.apply(r.state, [i])`)': {
    files: server(
      'export async function refuseAll() {',
      "  const r = await run(agent, 'refund my last payment');",
      '  for (const i of r.interruptions) r.state.reject.apply(r.state, [i]);',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  '`Reflect.apply` of the method': {
    files: server(
      'export async function approveAll() {',
      "  const r = await run(agent, 'refund my last payment');",
      '  for (const i of r.interruptions) Reflect.apply(r.state.approve, r.state, [i]);',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  "the prototype's method (`RunState.prototype.approve.call(r.state, i)`)": {
    files: server(
      'export async function approveAll() {',
      "  const r = await run(agent, 'refund my last payment');",
      '  for (const i of r.interruptions) RunState.prototype.approve.call(r.state, i);',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  'a sticky approval by `.call` (`sticky-approval`, its options the third argument)': {
    files: server(
      'export async function approveAll() {',
      "  const r = await run(agent, 'refund my last payment');",
      '  for (const i of r.interruptions) r.state.approve.call(r.state, i, { alwaysApprove: true });',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
    ruleId: 'sticky-approval',
  },
  // as `desk.approve(i)` is: the item an interruption, whatever the receiver
  'an interruption answered by `.call` of an object check cannot read': {
    files: server(
      'declare const desk: { approve(i: unknown): void };',
      "export async function go() { const r = await run(agent, 'hi'); for (const i of r.interruptions) desk.approve.call(desk, i); }",
    ),
    file: 'src/server.ts',
    line: 5,
  },
  // the method handed over as a value: the receiver alone decides
  'the method passed as a callback (`r.interruptions.forEach(r.state.approve, r.state)`)': {
    files: server(
      'export async function approveAll() {',
      "  const r = await run(agent, 'refund my last payment');",
      '  r.interruptions.forEach(r.state.approve, r.state);',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  'a bound method passed as a callback (`r.interruptions.forEach(r.state.reject.bind(r.state))`)': {
    files: server(
      'export async function refuseAll() {',
      "  const r = await run(agent, 'refund my last payment');",
      '  r.interruptions.forEach(r.state.reject.bind(r.state));',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  "the prototype's method bound to the state (`forEach(RunState.prototype.approve.bind(r.state))`)": {
    files: server(
      'export async function approveAll() {',
      "  const r = await run(agent, 'refund my last payment');",
      '  r.interruptions.forEach(RunState.prototype.approve.bind(r.state));',
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
  // the arguments as a list check cannot read: the receiver alone says it is the SDK's
  '`Reflect.apply` with a list of arguments held elsewhere': {
    files: server(
      'export async function approveAll(args: [any]) {',
      "  const r = await run(agent, 'refund my last payment');",
      "  Reflect.apply(r.state['approve'], r.state, args);",
      '  return run(agent, r.state);',
      '}',
    ),
    file: 'src/server.ts',
    line: 6,
  },
};

/** An import of the SDK, so the silent helpers are parsed (the prefilter would skip them) and their silence is the reader's. */
const SDK = "import type { RunState } from '@openai/agents';";

const silent: Record<string, { files: Record<string, string>; file: string }> = {
  // the item is an interruption, but the receiver is the app's own object and the key unread
  'an interruption handed to an object of handlers by a key check cannot read': {
    files: server(
      'declare const handlers: Record<string, (i: unknown) => void>;',
      'export async function go(kind: string) {',
      "  const r = await run(agent, 'hi');",
      '  for (const i of r.interruptions) handlers[kind](i);',
      '}',
    ),
    file: 'src/server.ts',
  },
  'a sticky options object handed to an object of handlers by a key check cannot read': {
    files: server(
      'declare const handlers: Record<string, (i: unknown, o: unknown) => void>;',
      'export async function go(kind: string) {',
      "  const r = await run(agent, 'hi');",
      '  for (const i of r.interruptions) handlers[kind](i, { alwaysApprove: true });',
      '}',
    ),
    file: 'src/server.ts',
  },
  "the app's own method called with `.call`": {
    files: server('interface Billing { approve(id: string): void }', 'export function ok(billing: Billing, id: string) { billing.approve.call(billing, id); }'),
    file: 'src/server.ts',
  },
  'an interruption logged by `.call` of a method that is no answer': {
    files: server(
      'declare const logger: { info(x: unknown): void };',
      "export async function go() { const r = await run(agent, 'hi'); for (const i of r.interruptions) logger.info.call(logger, i); }",
    ),
    file: 'src/server.ts',
  },
  "the app's own method passed as a callback, bound or not, beside the interruptions": {
    files: server(
      'declare const desk: { approve(i: unknown): void };',
      "export async function go() { const r = await run(agent, 'hi'); r.interruptions.forEach(desk.approve, desk); r.interruptions.forEach(desk.approve.bind(desk)); r.interruptions.forEach(r.state.toString.bind(r.state)); }",
    ),
    file: 'src/server.ts',
  },
  "the app's own method applied to a list check cannot read": {
    files: server(
      'interface Billing { approve(id: string): void }',
      'export function ok(billing: Billing, args: [string]) { Reflect.apply(billing.approve, billing, args); }',
    ),
    file: 'src/server.ts',
  },
  'a helper: a key whose written type is a literal union without an answer': { files: helper("kind: 'open' | 'close'", 'kind', SDK), file: 'src/answer.ts' },
  'a helper: a `const` key holding another literal': { files: helper('yes: boolean', 'verdict', SDK, "const verdict = 'open';"), file: 'src/answer.ts' },
  'a helper: a key check cannot read, on an untyped receiver': { files: helper('kind: string', 'kind', SDK), file: 'src/answer.ts' },
  'a helper: a literal key that is no answer': { files: helper('yes: boolean', "'open'", SDK), file: 'src/answer.ts' },
};

describe('sdk-approval: the answer named by a key (session 27, gap A)', () => {
  for (const [name, c] of Object.entries(reported))
    it(`reported: ${name}`, () => {
      const at = findings(c.files, c.file, c.ruleId).map((f) => f.line);
      expect(at, name).toContain(c.line);
      // one finding an answer: `Reflect.apply(state.approve, ...)` is not also a method handed over as a value
      expect(at, name).toEqual([...new Set(at)]);
    });
  for (const [name, c] of Object.entries(silent))
    it(`silent: ${name}`, () => {
      for (const ruleId of ['sdk-approval', 'sticky-approval']) expect(findings(c.files, c.file, ruleId), ruleId).toEqual([]);
    });
  it('the message writes the call as the app wrote it, key and all', () => {
    const [f] = findings(reported['the method picked by a ternary held in a `const` (`result.state[verdict](item)`)']!.files, 'src/server.ts');
    expect(f?.message).toContain('`result.state[verdict](item)`');
    expect(f?.hint).toMatch(/control\.approve[\s\S]*control\.reject/);
  });
});
