import { argsMatchHash } from '../../runtime/args-binding.js';
import type { ApprovalRequest } from '../../runtime/types.js';
import type { CommandSpec } from '../context.js';
import { type ServerArgs, serverOptions, withStoreOrServer } from '../server-client.js';
import { approve, approvedCount, deny, respond, unknownRequest } from './approvals-answer.js';
import { storeOption } from '../store-url.js';
import { formatTable, isoTime, truncate } from '../table.js';
import { safePrinter, terminalJson } from '../../terminal-text.js';
import { editOf } from '../../runtime/edits.js';

type StoreArgs = ServerArgs;

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

async function requireRequest(found: Promise<ApprovalRequest | null>, id: string, label: string): Promise<ApprovalRequest> {
  const request = await found;
  if (!request) throw unknownRequest(id, label);
  return request;
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
  if (request.door !== undefined) lines.push(`Door         ${p.show(request.door.kind)}${request.door.schema === undefined ? ' (no edits)' : ''}`);
  const edit = editOf(request);
  if (edit) lines.push(`Approved arguments (edited by ${p.show(edit.editedBy)})`, indent(prettyArgs(edit.args, p.show)));
  lines.push(r.answers.length === 0 ? 'Answers      none yet' : 'Answers');
  for (const a of r.answers) lines.push(`  ${isoTime(a.at)}  ${answerVerb(a)} by ${p.show(a.approver)}${a.reason ? `: ${p.show(a.reason)}` : ''}`);
  return `${lines.join('\n')}\n${p.note()}`;
}

function answerVerb(a: ApprovalRequest['answers'][number]): string {
  if (a.decision === 'respond') return "responded in the tool's place";
  if (a.decision === 'reject') return 'denied';
  return a.argsHash !== undefined ? 'approved with edits' : 'approved';
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
export function prettyArgs(args: string, show: (text: string) => string): string {
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
  describe: 'List, show, approve (with edits, or a grant), deny or respond to the calls waiting for a human',
  builder: (y) => y.option('store', storeOption).option('server', serverOptions.server).option('token', serverOptions.token),
  subcommands: [list, show, approve, deny, respond],
  examples: [
    ['ctrlrun-gen approvals list --pending', 'What is waiting for a human'],
    ['ctrlrun-gen approvals approve call_abc123 --as bob', 'Approve a call as bob'],
    ['CTRLRUN_STORE=postgres://ops@db/app ctrlrun-gen approvals list', 'Use a Postgres store'],
  ],
  run: async () => 2, // never called: a subcommand is required
};
