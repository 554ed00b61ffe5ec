import { UserError } from '../../diagnostics.js';
import { answerRequest, type AnswerInput, type AnswerResult } from '../../operator-actions.js';
import { policyDecider } from '../../policy/evaluate.js';
import { DEFAULT_MAX_GRANT_HOURS, type GrantInput } from '../../runtime/approval-grants.js';
import { operatorName, operatorText, safePrinter } from '../../terminal-text.js';
import type { CliContext, CommandSpec } from '../context.js';
import { loadPolicyInput } from '../../manifest/policy-input.js';
import { withProjectOptions } from '../project-options.js';
import { postToServer, refuseLocalActor, type ServerArgs, serverTarget, withStoreOrServer } from '../server-client.js';
import { operatorSigner, signingKeyOption } from '../signing-key.js';
import { distinctApprovers } from '../../runtime/internals.js';
import type { ApprovalRequest } from '../../runtime/types.js';

/**
 * `approvals approve|deny|respond`: an answer, with the store (`--as`) or through serve (the
 * token's operator). Both go through operator-actions (runtime/answer.ts): an edit (`--args`) is
 * checked against the tool's schema and decided again by the policy, a grant (`--grant-hours`)
 * against the policy's rule and the longest grant allowed (`--max-grant-hours` here, serve's own
 * through serve).
 */
type AnswerArgs = ServerArgs & {
  id: string;
  as?: string;
  reason?: string;
  signingKey?: string;
  args?: string;
  result?: string;
  grantHours?: number;
  grantBounds?: string;
  maxGrantHours?: number;
  policy?: string;
  manifest?: string;
};

const asOption = {
  type: 'string',
  requiresArg: true,
  describe: 'Who answers (recorded on the request and its receipt); not with --server, where the token says who',
} as const;

export const approve: CommandSpec<AnswerArgs> = {
  command: 'approve <id>',
  describe:
    'Approve a pending request as NAME (never the person the run acts for), as proposed or with edited arguments, optionally granting the same for a while',
  builder: (y) =>
    withProjectOptions(y)
      .positional('id', { type: 'string', describe: 'The request id' })
      .option('as', asOption)
      .option('reason', { type: 'string', requiresArg: true, describe: 'Why (recorded)' })
      .option('args', {
        type: 'string',
        requiresArg: true,
        describe: 'Approve with edits: the arguments to run instead (JSON), checked against the tool and decided again by the policy',
      })
      .option('grant-hours', {
        type: 'number',
        requiresArg: true,
        describe: 'Also grant the same (this action, this rule, this principal) for N hours: later calls within it run without a pause',
      })
      .option('grant-bounds', {
        type: 'string',
        requiresArg: true,
        describe: 'Narrow the grant: CTRLRun `when` entries as JSON, e.g. \'{"amount_lte": 300000}\'',
      })
      .option('max-grant-hours', {
        type: 'number',
        requiresArg: true,
        describe: `The longest grant allowed with direct store access (default ${DEFAULT_MAX_GRANT_HOURS}; through serve, serve's --max-grant-hours)`,
      })
      .option('signing-key', signingKeyOption),
  examples: [
    ['ctrlrun-gen approvals approve call_abc123 --as bob --reason "customer called"', 'Approve as bob (direct store access)'],
    ['ctrlrun-gen approvals approve call_abc123 --as bob --args \'{"payment_id":"pay_1","amount":200000}\'', 'Approve with a smaller amount'],
    [
      'ctrlrun-gen approvals approve call_abc123 --as bob --grant-hours 4 --grant-bounds \'{"amount_lte":300000}\'',
      'Approve, and the same up to 300000 for 4 hours',
    ],
    ['CTRLRUN_TOKEN=crg_op_… ctrlrun-gen approvals approve call_abc123 --server http://127.0.0.1:8787', "Approve through serve, as the token's operator"],
  ],
  run: async (args, ctx) => answer(args, ctx, 'approve'),
};

export const deny: CommandSpec<AnswerArgs & { reason: string }> = {
  command: 'deny <id>',
  describe: 'Deny a pending request as NAME, with a reason (the model reads it as the refusal)',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The request id' })
      .option('as', { ...asOption, describe: 'Who denies (recorded); not with --server, where the token says who' })
      .option('reason', { type: 'string', demandOption: true, requiresArg: true, describe: 'Why (recorded; the model reads it as the refusal)' })
      .option('signing-key', signingKeyOption),
  examples: [['ctrlrun-gen approvals deny call_abc123 --as bob --reason "duplicate request"', 'Deny as bob']],
  run: async (args, ctx) => answer(args, ctx, 'reject'),
};

export const respond: CommandSpec<AnswerArgs & { result: string }> = {
  command: 'respond <id>',
  describe: "Answer a pending call in the tool's place: the tool does not run, the model reads RESULT as its result",
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The request id' })
      .option('as', asOption)
      .option('result', { type: 'string', demandOption: true, requiresArg: true, describe: "What the model reads as the tool's result" })
      .option('reason', { type: 'string', requiresArg: true, describe: 'Why (recorded)' })
      .option('signing-key', signingKeyOption),
  examples: [['ctrlrun-gen approvals respond call_abc123 --as bob --result "Refund already issued on 2 May (re_9)."', "Answer in the tool's place"]],
  run: async (args, ctx) => answer(args, ctx, 'respond'),
};

export const approvedCount = (r: ApprovalRequest): number => distinctApprovers(r).size;

export function unknownRequest(id: string, label: string): UserError {
  return new UserError(`${id}: no approval request with this id in ${label}.\nhint: see \`ctrlrun-gen approvals list\` (and check --store)`);
}

async function answer(args: AnswerArgs, ctx: CliContext, decision: AnswerInput['decision']): Promise<number> {
  const reason = operatorText(args.reason, '--reason');
  if (decision === 'reject' && !reason) throw new UserError('--reason: say why the call is denied, e.g. --reason "duplicate request"');
  const edit = args.args === undefined ? undefined : jsonFlag(args.args, '--args');
  const grant = grantOf(args);
  const result = decision === 'respond' ? responseText(args.result) : undefined;
  const target = serverTarget(args, ctx);
  if (target) {
    refuseLocalActor(args, 'the answer');
    if (args.maxGrantHours !== undefined)
      throw new UserError("--max-grant-hours: through serve, serve's own limit applies (serve --max-grant-hours); drop it here.");
    const done = await postToServer<{ message: string }>(target, `/api/requests/${encodeURIComponent(args.id)}/answer`, {
      decision,
      ...(reason ? { reason } : {}),
      ...(edit === undefined ? {} : { arguments: edit }),
      ...(grant === undefined ? {} : { grant }),
      ...(result === undefined ? {} : { result }),
    });
    ctx.stdout(`${done.message}\n`);
    return 0;
  }
  if (args.as === undefined)
    throw new UserError('--as: name who answers (it is recorded), e.g. --as bob; or answer through serve with --server URL --token TOKEN');
  const approver = operatorName(args.as, '--as');
  const signer = operatorSigner(args.signingKey, ctx); // before the store is touched: a bad key changes nothing
  // an edit or a grant is decided by the policy: the project's, or --policy
  const decide =
    edit !== undefined || grant !== undefined
      ? policyDecider(loadPolicyInput({ cwd: ctx.cwd, policy: args.policy, manifest: args.manifest }).policy)
      : undefined;
  const maxGrantHours = args.maxGrantHours ?? DEFAULT_MAX_GRANT_HOURS;
  return withStoreOrServer(args, ctx, async (store, label) => {
    const input: AnswerInput = {
      approver,
      decision,
      at: Date.now(),
      ...(reason ? { reason } : {}),
      ...(edit === undefined ? {} : { arguments: edit }),
      ...(grant === undefined ? {} : { grant }),
      ...(result === undefined ? {} : { result }),
    };
    const answered = await answerRequest(store, args.id, input, signer, { decide, maxGrantHours });
    ctx.stdout(outcomeText(args.id, label, approver, decision, answered, ctx));
    return 0;
  });
}

/** What the answer came to, for the terminal; a refusal is a user error (exit 2, nothing changed). */
function outcomeText(id: string, label: string, approver: string, decision: AnswerInput['decision'], result: AnswerResult, ctx: CliContext): string {
  const verb = decision === 'approve' ? 'approve' : decision === 'reject' ? 'deny' : 'answer';
  switch (result.outcome) {
    case 'unknown':
      throw unknownRequest(id, label);
    case 'approver_is_requester':
      throw new UserError(
        `${id}: ${approver} cannot ${verb} this request: ${approver} is who the run acts for (the requester).\nhint: another person must answer it`,
      );
    case 'duplicate':
      throw new UserError(`${id}: ${approver} already answered this request; nothing changed.\nhint: it needs a different approver`);
    case 'not_pending':
      throw new UserError(`${id}: the request is already ${result.request.state}; nothing changed.`);
    case 'edit_mismatch':
      throw new UserError(
        `${id}: an earlier approval approved other arguments; every approver of a call approves the same ones. Nothing changed.\nhint: \`ctrlrun-gen approvals show ${id}\` shows the approved arguments: approve those with --args, or deny`,
      );
    case 'args_mismatch':
      throw new UserError(
        `${id}: the stored arguments are not the ones this request's argsHash binds (what is shown is not what would run); refused, nothing changed.\nhint: the store was written by something other than ctrlrun-gen; check who can write it`,
      );
    case 'refused':
      throw new UserError(`${id}: ${result.message} Nothing changed.`);
    case 'recorded': {
      // the stored action and call id are the model's or the store writer's text: never raw to a terminal
      const p = safePrinter();
      const r = { ...result.request, callId: p.show(result.request.callId), action: p.show(result.request.action) };
      ctx.stderr(p.note());
      const granted = result.grant ? ` Granted ${result.grant.id} until ${new Date(result.grant.expiresAt).toISOString()}.` : '';
      if (decision === 'respond') return `Responded to ${r.callId} (${r.action}) as ${approver}: the tool does not run; the model reads the response.\n`;
      if (r.state === 'rejected') return `Denied ${r.callId} (${r.action}) as ${approver}. The run gets a refusal when it resumes.\n`;
      if (r.state === 'approved')
        return `Approved ${r.callId} (${r.action}) as ${approver} (${approvedCount(r)}/${r.approvalsRequired}). The call runs once when the run resumes.${granted}\n`;
      return `Recorded ${approver}'s approval of ${r.callId} (${approvedCount(r)}/${r.approvalsRequired}); it needs ${r.approvalsRequired - approvedCount(r)} more.\n`;
    }
  }
}

function jsonFlag(text: string, flag: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UserError(`${flag} is not valid JSON (${(error as Error).message}); pass a JSON object, e.g. ${flag} '{"amount": 5000}'`);
  }
}

function grantOf(args: AnswerArgs): GrantInput | undefined {
  if (args.grantHours === undefined) {
    if (args.grantBounds !== undefined) throw new UserError('--grant-bounds: it goes with --grant-hours N (how long the grant lasts).');
    return undefined;
  }
  // the bounds stay text: read losslessly (integers of any size) where the grant is checked
  if (args.grantBounds !== undefined) jsonFlag(args.grantBounds, '--grant-bounds');
  return { hours: args.grantHours, ...(args.grantBounds === undefined ? {} : { bounds: args.grantBounds }) };
}

function responseText(result: string | undefined): string {
  if (result === undefined || result.trim() === '') throw new UserError("--result: say what the model reads in the tool's place.");
  // a response may span lines; other control characters are refused as in every operator text
  for (const line of result.split(/\r?\n/)) operatorText(line, '--result');
  return result;
}
