import { lines, ruleTester, testProject, action } from '../rule-tester.js';

// Issue 21, item 6: a RealtimeSession whose tool_approval_requested nobody answers waits forever.
const RT = "import { RealtimeAgent, RealtimeSession } from '@openai/agents/realtime';";
const SESSION = "const session = new RealtimeSession(new RealtimeAgent({ name: 'voice' }), { model: 'gpt-realtime' });";

ruleTester('realtime-approval-unanswered', {
  valid: [
    {
      name: 'filed with control.requestRealtime',
      code: lines(RT, SESSION, "session.on('tool_approval_requested', (_c, _a, request) => { void control.requestRealtime(session, request.approvalItem); });"),
    },
    {
      name: 'kept in state for a dialog that answers later (the request handed on)',
      code: lines(RT, SESSION, "session.on('tool_approval_requested', (_c, _a, request) => setPending(request));"),
    },
    {
      name: 'a handler in a function of the same file that answers',
      code: lines(
        RT,
        SESSION,
        'function onApproval(_c: unknown, _a: unknown, r: { approvalItem: never }) { fileIt(r); }',
        'function fileIt(r: { approvalItem: never }) { return control.requestRealtime(session, r.approvalItem); }',
        "session.on('tool_approval_requested', onApproval);",
      ),
    },
    {
      name: 'answered in the handler with the session itself',
      code: lines(RT, SESSION, "session.on('tool_approval_requested', () => session.reject(lastItem));"),
    },
    {
      name: 'a handler from another module (check cannot read it)',
      code: lines(RT, "import { onApproval } from './approvals.js';", SESSION, "session.on('tool_approval_requested', onApproval);"),
    },
    {
      name: 'a policy that never pauses',
      project: testProject({ actions: [action('stripe.refund', ['allow']), action('stripe.charge.read', ['allow']), action('accounts.close', ['deny'])] }),
      code: lines(RT, SESSION),
    },
    { name: 'no project', project: null, code: lines(RT, SESSION) },
  ],
  invalid: [
    { name: 'no handler at all', code: lines(RT, SESSION), errors: [{ line: 2, column: 17, mentions: 'No handler' }] },
    {
      name: 'a handler that only refreshes its own drawer',
      code: lines(RT, SESSION, "session.on('tool_approval_requested', () => { refreshHistory(); setDrawerOpen(true); });"),
      errors: [{ line: 2, column: 17, mentions: 'handled (src/agent.ts:3) but never answered' }],
    },
  ],
});
