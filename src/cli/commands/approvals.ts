import { UserError } from '../../diagnostics.js';
import { argsMatchHash } from '../../runtime/args-binding.js';
import { distinctApprovers } from '../../runtime/internals.js';
import type { ApprovalRequest } from '../../runtime/types.js';
import type { CliContext, CommandSpec } from '../context.js';
import { answerRequest } from '../../operator-actions.js';
import { postToServer, type ServerArgs, serverOptions, serverTarget, withStoreOrServer } from '../server-client.js';
import { operatorSigner, signingKeyOption } from '../signing-key.js';
import { storeOption } from '../store-url.js';
import { formatTable, isoTime, truncate } from '../table.js';
import { operatorName, operatorText, safePrinter, terminalJson } from '../../terminal-text.js';

type StoreArgs = ServerArgs;

const approvedCount = (r: ApprovalRequest): number => distinctApprovers(r).size;

const list: CommandSpec<StoreArgs & { pending: boolean; json: boolean }> = {
  command: 'list',
  describe: 'List approval requests (newest last)',
  builder: (y) =>
    y
      .option('pending', { type: 'boolean', default: false, describe: 'Only requests still waiting for an answer' })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON (one array)' }),
  examples: [
    ['ctrlrun-gen approvals list --pending', 'What is waiting for a human'],
    ['ctrlrun-gen approvals list --json --store postgres://ops@db/app', 'Every request, as JSON, from Postgres'],
  ],
  run: async (args, ctx) =>
    withStoreOrServer(args, ctx, async (store, label) => {
      const requests = await store.listRequests(args.pending ? { state: 'pending' } : {});
      if (args.json) {
        ctx.stdout(`${terminalJson(requests)}\n`);
        return 0;
      }
      if (requests.length === 0) {
        ctx.stdout(`No ${args.pending ? 'pending ' : ''}approval requests in ${label}.\n`);
        return 0;
      }
      const p = safePrinter();
      ctx.stdout(
        formatTable(
          ['ID', 'STATE', 'ACTION', 'REQUESTED BY', 'APPROVALS', 'CREATED', 'ARGS'],
          requests.map((r) => [
            p.show(r.callId),
            p.show(r.state),
            p.show(r.action),
            p.show(r.principal),
            `${approvedCount(r)}/${r.approvalsRequired}`,
            isoTime(r.createdAt),
            argsCell(r, p.show),
          ]),
        ) +
          p.note() +
          (requests.some((r) => !argsMatchHash(r)) ? `${MISMATCH_MARK} ${MISMATCH_NOTE}\n` : ''),
      );
      return 0;
    }),
};

const show: CommandSpec<StoreArgs & { id: string; json: boolean }> = {
  command: 'show <id>',
  describe: 'Show one approval request: the call, its arguments and every answer',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The request id (the call id, from `approvals list`)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON' }),
  examples: [['ctrlrun-gen approvals show call_abc123', 'Read the call before answering it']],
  run: async (args, ctx) =>
    withStoreOrServer(args, ctx, async (store, label) => {
      const request = await requireRequest(store.getRequest(args.id), args.id, label);
      if (args.json) {
        ctx.stdout(`${terminalJson(request)}\n`);
        return 0;
      }
      ctx.stdout(describeRequest(request));
      return 0;
    }),
};

const approve: CommandSpec<AnswerArgs> = {
  command: 'approve <id>',
  describe: 'Approve a pending request as NAME (never the person the run acts for)',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The request id' })
      .option('as', {
        type: 'string',
        requiresArg: true,
        describe: 'Who approves (recorded on the request and its receipt); not with --server, where the token says who',
      })
      .option('reason', { type: 'string', requiresArg: true, describe: 'Why (recorded)' })
      .option('signing-key', signingKeyOption),
  examples: [
    ['ctrlrun-gen approvals approve call_abc123 --as bob --reason "customer called"', 'Approve as bob (direct store access)'],
    ['CTRLRUN_TOKEN=crg_op_… ctrlrun-gen approvals approve call_abc123 --server http://127.0.0.1:8787', "Approve through serve, as the token's operator"],
  ],
  run: async (args, ctx) => answer(args, ctx, 'approve'),
};

const deny: CommandSpec<AnswerArgs & { reason: string }> = {
  command: 'deny <id>',
  describe: 'Deny a pending request as NAME, with a reason',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The request id' })
      .option('as', { type: 'string', requiresArg: true, describe: 'Who denies (recorded); not with --server, where the token says who' })
      .option('reason', { type: 'string', demandOption: true, requiresArg: true, describe: 'Why (recorded; the run sees a refusal)' })
      .option('signing-key', signingKeyOption),
  examples: [['ctrlrun-gen approvals deny call_abc123 --as bob --reason "duplicate request"', 'Deny as bob']],
  run: async (args, ctx) => answer(args, ctx, 'reject'),
};

type AnswerArgs = StoreArgs & { id: string; as?: string; reason?: string; signingKey?: string };

async function answer(args: AnswerArgs, ctx: CliContext, decision: 'approve' | 'reject'): Promise<number> {
  const reason = operatorText(args.reason, '--reason');
  if (decision === 'reject' && !reason) throw new UserError('--reason: say why the call is denied, e.g. --reason "duplicate request"');
  const target = serverTarget(args, ctx);
  if (target) {
    if (args.as !== undefined) throw new UserError("--as: with --server the answer is recorded as the token's operator; drop --as.");
    if (args.signingKey !== undefined)
      throw new UserError('--signing-key: with --server, serve writes the receipt and signs it with its own key (serve --signing-key); drop it here.');
    const done = await postToServer<{ message: string }>(target, `/api/requests/${encodeURIComponent(args.id)}/answer`, {
      decision,
      ...(reason ? { reason } : {}),
    });
    ctx.stdout(`${done.message}
`);
    return 0;
  }
  if (args.as === undefined)
    throw new UserError('--as: name who answers (it is recorded), e.g. --as bob; or answer through serve with --server URL --token TOKEN');
  const approver = operatorName(args.as, '--as');
  const signer = operatorSigner(args.signingKey, ctx); // before the store is touched: a bad key changes nothing
  return withStoreOrServer(args, ctx, async (store, label) => {
    const now = Date.now();
    const result = await answerRequest(store, args.id, { approver, decision, at: now, ...(reason ? { reason } : {}) }, signer);
    const verb = decision === 'approve' ? 'approve' : 'deny';
    switch (result.outcome) {
      case 'unknown':
        throw unknownRequest(args.id, label);
      case 'approver_is_requester':
        throw new UserError(
          `${args.id}: ${approver} cannot ${verb} this request: ${approver} is who the run acts for (the requester).\nhint: another person must answer it`,
        );
      case 'duplicate':
        throw new UserError(`${args.id}: ${approver} already answered this request; nothing changed.\nhint: it needs a different approver`);
      case 'not_pending':
        throw new UserError(`${args.id}: the request is already ${result.request.state}; nothing changed.`);
      case 'args_mismatch':
        throw new UserError(
          `${args.id}: the stored arguments are not the ones this request's argsHash binds (what is shown is not what would run); refused, nothing changed.\nhint: the store was written by something other than ctrlrun-gen; check who can write it`,
        );
      case 'recorded': {
        // the stored action and call id are the model's or the store writer's text: never raw to a terminal
        const p = safePrinter();
        const r = { ...result.request, callId: p.show(result.request.callId), action: p.show(result.request.action) };
        ctx.stderr(p.note());
        if (r.state === 'rejected') ctx.stdout(`Denied ${r.callId} (${r.action}) as ${approver}. The run gets a refusal when it resumes.\n`);
        else if (r.state === 'approved')
          ctx.stdout(
            `Approved ${r.callId} (${r.action}) as ${approver} (${approvedCount(r)}/${r.approvalsRequired}). The call runs once when the run resumes.\n`,
          );
        else
          ctx.stdout(
            `Recorded ${approver}'s approval of ${r.callId} (${approvedCount(r)}/${r.approvalsRequired}); it needs ${r.approvalsRequired - approvedCount(r)} more.\n`,
          );
        return 0;
      }
    }
  });
}

async function requireRequest(found: Promise<ApprovalRequest | null>, id: string, label: string): Promise<ApprovalRequest> {
  const request = await found;
  if (!request) throw unknownRequest(id, label);
  return request;
}

function unknownRequest(id: string, label: string): UserError {
  return new UserError(`${id}: no approval request with this id in ${label}.\nhint: see \`ctrlrun-gen approvals list\` (and check --store)`);
}

function describeRequest(request: ApprovalRequest): string {
  const p = safePrinter();
  const r = {
    ...request,
    callId: p.show(request.callId),
    state: p.show(request.state),
    action: p.show(request.action),
    toolName: p.show(request.toolName),
    principal: p.show(request.principal),
    argsHash: p.show(request.argsHash),
    policyHash: p.show(request.policyHash),
  };
  const lines = [
    `Request      ${r.callId}`,
    `State        ${r.state}`,
    `Action       ${r.action} (tool ${r.toolName})`,
    `Requested by ${r.principal}`,
    `Approvals    ${approvedCount(request)}/${r.approvalsRequired}`,
    `Created      ${isoTime(r.createdAt)}`,
  ];
  if (r.decidedAt !== undefined) lines.push(`Decided      ${isoTime(r.decidedAt)}`);
  if (r.consumedAt !== undefined) lines.push(`Consumed     ${isoTime(r.consumedAt)}`);
  lines.push(`Args hash    ${r.argsHash}`, `Policy hash  ${r.policyHash}`, 'Arguments', indent(prettyArgs(r.args, p.show)));
  if (!argsMatchHash(request)) lines.push(`  ${MISMATCH_MARK} ${MISMATCH_NOTE}`);
  lines.push(r.answers.length === 0 ? 'Answers      none yet' : 'Answers');
  for (const a of r.answers)
    lines.push(`  ${isoTime(a.at)}  ${a.decision === 'approve' ? 'approved' : 'denied'} by ${p.show(a.approver)}${a.reason ? `: ${p.show(a.reason)}` : ''}`);
  return `${lines.join('\n')}\n${p.note()}`;
}

/** Marks a request whose stored `args` are not what its `argsHash` binds (issue 24, item 3). */
const MISMATCH_MARK = '[args ≠ args hash]';
const MISMATCH_NOTE =
  "these stored arguments are not the ones the request's args hash binds: what is shown is not what would run, and nobody can answer it (the store was written by something other than ctrlrun-gen).";

/** The ARGS cell: the arguments, escaped, shortened, and marked when they do not match the hash. */
function argsCell(r: ApprovalRequest, show: (text: string) => string): string {
  const args = show(truncate(r.args, 60));
  return argsMatchHash(r) ? args : `${MISMATCH_MARK} ${args}`;
}

/** The arguments, one line per JSON line, each escaped and marked if it must be (JSON escapes newlines itself). */
function prettyArgs(args: string, show: (text: string) => string): string {
  let pretty: string;
  try {
    pretty = JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return show(args);
  }
  return pretty.split('\n').map(show).join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

export const approvalsCommand: CommandSpec<StoreArgs> = {
  command: 'approvals',
  describe: 'List, show, approve or deny the calls waiting for a human',
  builder: (y) => y.option('store', storeOption).option('server', serverOptions.server).option('token', serverOptions.token),
  subcommands: [list, show, approve, deny],
  examples: [
    ['ctrlrun-gen approvals list --pending', 'What is waiting for a human'],
    ['ctrlrun-gen approvals approve call_abc123 --as bob', 'Approve a call as bob'],
    ['CTRLRUN_STORE=postgres://ops@db/app ctrlrun-gen approvals list', 'Use a Postgres store'],
  ],
  run: async () => 2, // never called: a subcommand is required
};
