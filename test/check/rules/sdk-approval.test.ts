import { lines, ruleTester } from '../rule-tester.js';

const GEN = "import { protectedTool } from './ctrlrun.generated.js';";

ruleTester('sdk-approval', {
  valid: [
    {
      name: 'the Control answers',
      code: lines(GEN, 'await control.approve(state, item, { approver: "ana" });', 'await control.reject(state, item, { approver: "ana" });'),
    },
    { name: 'a promise rejection', code: lines(GEN, 'Promise.reject(new Error("x"));') },
    { name: 'no protected tools in the repo (no project, no protectedTool)', project: null, code: lines('state.approve(item);') },
    { name: "alwaysApprove is sticky-approval's finding", code: lines('state.approve(item, { alwaysApprove: true });') },
    {
      name: "an app's own approve methods (issue 21: companyClient.approve(id), company.approve(...))",
      code: lines(
        GEN,
        'export async function onClick(id: string) { await companyClient.approve(id); }',
        'await company.approve(request.id, { note: "ok" });',
        'await company.reject(invoice);',
        'const pending = await api.list(); for (const p of pending) await api.approve(p);',
        'items.forEach((it) => moderation.approve(it));',
        'export function decide(state: { approve(x: unknown): void }, row: Row) { state.approve(row); }',
      ),
    },
    {
      name: "a helper's parameter of the app's own type, or of a type imported from elsewhere under another name (issue 40)",
      code: lines(
        GEN,
        "import type { RunState as Ledger } from './billing.js';",
        'export function settle(client: Billing, id) { client.approve(id); }',
        'export function pay(client: Ledger, id: string) { client.reject(id); }',
      ),
    },
    {
      name: "a helper's parameter typed with another SDK type under another name (issue 40)",
      code: lines(GEN, "import type { Agent as A } from '@openai/agents';", 'export function settle(box: A, id: string) { box.approve(id); }'),
    },
    {
      name: "a destructured `state` or list that is not a run's",
      code: lines(
        GEN,
        'const { state } = await api.load(); state.approve(row);',
        'const { pending, finalOutput } = await run(agent, "x"); pending.forEach((p) => client.approve(p)); finalOutput.approve(row);',
      ),
    },
    {
      // session 21: a local the scanner cannot type is not taken for a run's state (an app's own client, queue or PR)
      name: 'a local receiver from an untyped call, with an item not from its interruptions',
      code: lines(GEN, 'const s = load(); s.approve(row);', 'const client = createClient(); client.reject(await client.find(id));'),
    },
    {
      // session 21: TypeScript types an inline callback's bare parameter from its call (a `Review`)
      name: "an inline callback's bare parameter, in an arrow, a function expression, a `new`, in parentheses (issue 40)",
      code: lines(
        GEN,
        'export async function all(reviews: Review[], by: string) { await Promise.all(reviews.map((review) => review.approve(by))); }',
        'queue.forEach(function (job) { job.reject(reason); });',
        'new Worker((task) => task.approve(by));',
        'jobs.forEach(((job) => job.approve(by)));',
      ),
    },
    {
      // session 21: a class's fields of the app's own types, and a `function` rebinding `this`
      name: "a class's fields of other types, a field of another class, a function's own `this` (issue 40)",
      code: lines(
        GEN,
        "import type { RunState } from '@openai/agents';",
        'class Desk { private client: Billing; private rows: Row[] = []; go() { for (const r of this.rows) this.client.approve(r); } }',
        'class A { state?: RunState<any, any>; } class B { state: Ledger; go(r: Row) { this.state.approve(r); } }',
        'class C { state?: RunState<any, any>; go(r: Row) { return function (this: Ledger) { this.state.approve(r); }; } }',
        'class D { constructor(state: RunState<any, any>) {} go(r: Row) { this.state.approve(r); } }',
      ),
    },
    {
      // session 21: React state of the app's own types, or with no type argument
      name: 'React state and refs of other types, or untyped (issue 40)',
      code: lines(
        GEN,
        'const [review] = useState<Review | null>(null); client.approve(review);',
        'const ref = useRef<Client | null>(null); ref.current?.approve(row);',
        'const [item] = useState(null); box.approve(item);',
        'const [, other] = useState<RunToolApprovalItem | null>(null); box.approve(other);',
        'const r2 = useRef<RealtimeSession | null>(null); r2.approve(row);',
        'const [it2, setIt2] = useState<RunToolApprovalItem | null>(null); box.approve(setIt2);',
        'const r3 = useMemo<RealtimeSession>(() => make(), []); r3.current.approve(row);',
      ),
    },
    {
      // session 21: an object's written type naming the app's own types, or no written type
      name: "entries of a map or objects whose written types are the app's own, or unwritten (issue 40)",
      code: lines(
        GEN,
        'const jobs = new Map<string, { state: Ledger; item: Row }>(); const j = jobs.get(id)!; j.state.approve(j.item);',
        'const bare = new Map(); const b = bare.get(id); b.state.approve(b.item);',
        'interface Job { state: Ledger; item: Row } function f(job: Job) { job.state.reject(job.item); }',
        'const sets = new Set<{ state: RunState<any, any> }>(); const x = sets.get(id); x.state.approve(row);',
        'const pair = new Pair<string, { state: RunState<any, any> }>(); const y = pair.get(id); y.state.approve(row);',
        'const w: Pair<string, { state: RunState<any, any> }> = make(); const z = w.get(id); z.state.approve(row);',
        'const m2 = new Map<string, { state: RunState<any, any> }>(); const h = m2.has(id); h.state.approve(row);',
      ),
    },
  ],
  invalid: [
    {
      // session 21: an approval handler's map of pending calls (the red team's server)
      name: "a map's entries and objects whose written types name the SDK's state or item (issue 40)",
      code: lines(
        GEN,
        "import type { RunState, RunToolApprovalItem } from '@openai/agents';",
        'const p1 = new Map<string, { state: RunState<any, any>; item: Row }>(); const e1 = p1.get(id)!; e1.state.approve(e1.item);',
        'type P = { state: Ledger; item: RunToolApprovalItem }; type Q = P | undefined; const p2: Map<string, Q> = new Map(); const e2 = p2.get(id); box.reject(e2!.item);',
        'interface R { s: RunState<any, any> } function f(r: R) { r.s.approve(row); }',
      ),
      errors: [
        { line: 3, column: 97, mentions: 'control' },
        { line: 4, column: 141, mentions: 'control' },
        { line: 5, column: 58, mentions: 'control' },
      ],
    },
    {
      // session 21: a realtime page keeping the item for a dialog (the red team's Desk.tsx)
      name: 'an item kept in useState, a session kept in useRef (issue 40)',
      code: lines(
        GEN,
        "import type { RealtimeSession, RealtimeToolApprovalRequest } from '@openai/agents/realtime'; import type { RunToolApprovalItem } from '@openai/agents';",
        'const [pending] = useState<RunToolApprovalItem | null>(null); box.approve(pending);',
        'const s = useRef<RealtimeSession | null>(null); s.current?.reject(row);',
        'const [p2, setP2] = React.useState<RealtimeToolApprovalRequest>(); box.reject(p2);',
      ),
      errors: [
        { line: 3, column: 63, mentions: 'control' },
        { line: 4, column: 49, mentions: 'control' },
        { line: 5, column: 68, mentions: 'control' },
      ],
    },
    {
      // session 21: a chat session kept in a class (the red team's DeskSession)
      name: "a class's fields typed as the SDK's state and items, a parameter property, in an arrow (issue 40)",
      code: lines(
        GEN,
        "import type { RunState, RunToolApprovalItem } from '@openai/agents';",
        'class S { private state?: RunState<any, any>; go(r: Row) { this.state!.approve(r); } }',
        'class P { private pending: RunToolApprovalItem[] = []; go() { for (const i of this.pending) store.reject(i); } }',
        'class Q { constructor(private readonly s: RunState<any, any>) {} go(r: Row) { rows.forEach(() => this.s.reject(r)); } }',
        'const K = class { item: RunToolApprovalItem | null = null; go() { box.approve(this.item); } };',
      ),
      errors: [
        { line: 3, column: 60, mentions: 'control.approve' },
        { line: 4, column: 93, mentions: 'control.reject' },
        { line: 5, column: 98, mentions: 'control.reject' },
        { line: 6, column: 67, mentions: 'control.approve' },
      ],
    },
    {
      // session 21: a callback's parameter counts where its list holds SDK items, or where typed any / kept by a helper
      name: "an inline callback over interruptions, one typed `any`, and a helper's untyped parameter inside a callback (issue 40)",
      code: lines(
        GEN,
        'result.interruptions.forEach((item) => result.state.approve(item));',
        'states.forEach((s: any) => s.approve(row));',
        'export function decide(state, rows) { rows.forEach((row) => state.reject(row)); }',
        'const answer = (s, i) => s.approve(i);',
        '((s, i) => s.approve(i))(st, it);',
      ),
      errors: [
        { line: 2, column: 40, mentions: 'control.approve' },
        { line: 3, column: 28, mentions: '`s` is a parameter typed `any`' },
        { line: 4, column: 61, mentions: '`state` is a parameter with no type' },
        { line: 5, column: 26, mentions: '`s` is a parameter with no type' },
        { line: 6, column: 12, mentions: '`s` is a parameter with no type' },
      ],
    },
    {
      // session 21: the item half decides where the receiver cannot be typed
      name: 'a local receiver from an untyped call, answering an item of its interruptions',
      code: lines(GEN, 'const s = load(); for (const i of s.getInterruptions()) s.approve(i);'),
      errors: [{ line: 2, column: 57, mentions: 'control.approve' }],
    },
    {
      name: "a helper's untyped parameters, in TypeScript (`any`) or plain JavaScript: taken for a run's state (issue 40)",
      code: lines(
        GEN,
        'export function decide(state: any, item: any, yes: boolean) { if (yes) state.approve(item); else state.reject(item); }',
        'export function answer(s, i) { s.approve(i); }',
        'export function other(s: unknown, i: unknown) { s.rejectTool(i); }',
      ),
      errors: [
        { line: 2, column: 72, mentions: '`state` is a parameter typed `any`' },
        { line: 2, column: 98, mentions: 'taken for one' },
        { line: 3, column: 32, mentions: '`s` is a parameter with no type' },
        { line: 4, column: 49, mentions: '`s` is a parameter typed `unknown`' },
      ],
    },
    {
      name: "a helper's parameters typed with the SDK's types under other names (issue 40)",
      code: lines(
        GEN,
        "import type { RunState as S, RunToolApprovalItem as I } from '@openai/agents';",
        'export function decide(state: S<any, any>, item: Row) { state.approve(item); }',
        'export function other(box: Box, item: I) { box.reject(item); }',
      ),
      errors: [
        { line: 3, column: 57, mentions: 'control.approve(state, item, { approver })' },
        { line: 4, column: 44, mentions: 'control.reject(state, item' },
      ],
    },
    {
      name: 'state.approve(item) with tools mapped in the manifest',
      code: lines("import { run } from '@openai/agents';", 'for (const item of result.interruptions) result.state.approve(item);'),
      errors: [{ line: 2, column: 42, mentions: 'control.approve(state, item, { approver })' }],
    },
    {
      name: 'reject, approveTool and rejectTool',
      code: lines(
        'for (const item of result.interruptions) state.reject(item);',
        'result.interruptions.forEach((call) => ctx.approveTool(call));',
        'const [call] = state.getInterruptions(); ctx.rejectTool(call, { message: "no" });',
      ),
      errors: [
        { line: 1, column: 42, mentions: 'control.reject' },
        { line: 2, column: 40, mentions: 'control.approve' },
        { line: 3, column: 42, mentions: 'control.reject' },
      ],
    },
    {
      name: "a RealtimeSession's approve in a file of the realtime entry: the realtime calls are the hint",
      code: lines(
        "import { RealtimeSession } from '@openai/agents/realtime';",
        "session.on('tool_approval_requested', (_c, _a, request) => {",
        '  session.current?.approve(request.approvalItem);',
        '});',
      ),
      errors: [{ line: 3, column: 3, mentions: 'control.resolveRealtime(session, request.approvalItem)' }],
    },
    {
      name: 'no manifest, but the file builds a protected tool',
      project: null,
      code: lines(
        GEN,
        "import { RunState } from '@openai/agents';",
        "export const r = protectedTool('stripe.refund', { name: 'refund' });",
        'const state = await RunState.fromString(agent, saved); state.approve(item);',
      ),
      errors: [{ line: 4, column: 56 }],
    },
    {
      name: 'a typed RunState parameter, a run result held in a variable, a typed item, a streamed result',
      code: lines(
        "import type { RunState, RunToolApprovalItem } from '@openai/agents';",
        'export async function answer(state: RunState<unknown, Agent>, item: unknown) { state.approve(item); }',
        'const result = await runner.run(agent, "hi"); const held = result; held.state.reject(pending);',
        'export function one(item: RunToolApprovalItem) { store.approve(item); }',
        'const stream = await run(agent, "hi", { stream: true }); stream.state.approve(event.item);',
      ),
      errors: [
        { line: 2, column: 80 },
        { line: 3, column: 68 },
        { line: 4, column: 50 },
        { line: 5, column: 58 },
      ],
    },
    {
      // the run's state taken out of its result by destructuring is a RunState: a hosted MCP server
      // with requireApproval: 'always' (which hosted-mcp-unguarded accepts) is otherwise approved
      // through the SDK with check green
      name: 'state.approve of a state destructured from the run result',
      code: lines(
        "import { Agent, run, hostedMcpTool } from '@openai/agents';",
        GEN,
        "const gh = new Agent({ name: 'gh', tools: [hostedMcpTool({ serverLabel: 'github', serverUrl: 'https://x', requireApproval: 'always' })] });",
        "const { state, interruptions } = await run(gh, 'x');",
        'for (const i of interruptions) state.approve(i);',
      ),
      errors: [{ line: 5, column: 32 }],
    },
    {
      name: 'each part destructured on its own: the state (renamed) of a run, the interruptions of any result',
      code: lines(
        "import { run } from '@openai/agents';",
        "const { state: s } = await run(agent, 'x');",
        's.approve(pending);',
        'const { interruptions: waiting } = held;',
        'for (const i of waiting) answers.reject(i);',
      ),
      errors: [
        { line: 3, column: 1 },
        { line: 5, column: 26 },
      ],
    },
  ],
});
