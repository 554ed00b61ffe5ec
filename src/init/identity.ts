import { UserError } from '../diagnostics.js';
import { runsLackingContext, type MappedDoors } from '../scan/context-runs.js';
import type { FileScan } from '../scan/types.js';

/**
 * Who a run acts for, as init writes it into the control (issue 21, item 4): a key path in the
 * context the app passes to `run()` (`user`, `session.userId`), or an environment variable for
 * runs no person stands behind (a script, a job). Default: `runContext.context.user`.
 */
export type IdentityProposal = { kind: 'context'; path: string[]; from?: { file: string; line: number } } | { kind: 'env'; name: string };

export const DEFAULT_IDENTITY: IdentityProposal = { kind: 'context', path: ['user'] };

const KEY = /^[A-Za-z_$][\w$]*$/;

/** `--identity user.id` (a context key path) or `--identity env:CTRLRUN_PRINCIPAL`. */
export function parseIdentityOption(text: string): IdentityProposal {
  const env = /^env:(.*)$/.exec(text);
  if (env) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(env[1]!)) return { kind: 'env', name: env[1]! };
    throw new UserError(`--identity ${text}: '${env[1]}' is not an environment variable name. Hint: --identity env:CTRLRUN_PRINCIPAL`);
  }
  const path = text.split('.');
  if (text !== '' && path.every((k) => KEY.test(k))) return { kind: 'context', path };
  throw new UserError(
    `--identity ${JSON.stringify(text)}: expected a key path in the run's context (\`user\`, \`session.userId\`) or \`env:NAME\`. ` +
      'Hint: --identity userId reads runContext.context.userId; --identity env:CTRLRUN_PRINCIPAL reads a variable, for runs no person stands behind.',
  );
}

/** Context keys that name who a run acts for, most telling first. */
const PRINCIPAL_KEYS = [
  'user',
  'userId',
  'user_id',
  'userID',
  'uid',
  'principal',
  'actor',
  'username',
  'email',
  'account',
  'accountId',
  'customerId',
  'customer',
  'sessionUser',
  'owner',
];

/** A flag about the user (`isProUser`, `hasAccount`), not who the user is: never proposed by its name alone. */
const FLAG_KEY = /^(?:is|has|can|should|was|needs?|allows?)(?:[A-Z_]|$)/;

export interface IdentityFound {
  proposal: IdentityProposal;
  runs: number;
  /** The context keys the runs pass when none names a principal (`conversationId`): the default is written, and a note says so. */
  otherKeys?: string[];
}

/**
 * The identity the code suggests: the principal-like key the app's runs pass in their context
 * (`run(agent, input, { context: { userId } })`); the default when no run passes one (a key such
 * as `conversationId` or `threadId` says what the run is about, not who it acts for, and a flag
 * such as `isProUser` says something of the user, not who: never proposed).
 */
export function proposeIdentity(scans: readonly FileScan[]): IdentityFound {
  const passed: Array<{ key: string; file: string; line: number }> = [];
  let runs = 0;
  for (const scan of scans) {
    for (const run of scan.runCalls ?? []) {
      if (run.resumes) continue;
      runs++;
      if (run.context.kind === 'keys') for (const key of run.context.keys) passed.push({ key, file: scan.file, line: run.span.line });
    }
  }
  const pick =
    PRINCIPAL_KEYS.map((k) => passed.find((p) => p.key === k)).find((p) => p !== undefined) ??
    passed.find((p) => PRINCIPAL_LIKE.test(p.key) && !NOT_A_PRINCIPAL.test(p.key) && !FLAG_KEY.test(p.key));
  const proposal: IdentityProposal = pick ? { kind: 'context', path: [pick.key], from: { file: pick.file, line: pick.line } } : DEFAULT_IDENTITY;
  // keys passed that say nothing of who the run acts for: named in a note, never proposed
  const otherKeys = pick ? [] : [...new Set(passed.map((p) => p.key))];
  return { proposal, runs, ...(otherKeys.length > 0 ? { otherKeys } : {}) };
}

/**
 * The runs init names for passing no context the identity it writes reads (issue 40, item 3): the
 * very runs `check` names once the control is written (`run-without-context`), asked of the same
 * function with what init maps and what the written identity reads (its first key; nothing for
 * an environment principal).
 */
export function runsWithoutContext(scans: readonly FileScan[], identity: IdentityProposal, mapped: MappedDoors): RunNamed[] {
  const needs = identity.kind === 'context' ? [identity.path[0]!] : undefined;
  return runsLackingContext(scans, mapped, needs).map((r) => ({ file: r.file, line: r.run.span.line, none: r.run.context.kind === 'none' }));
}

/**
 * What init is about to map, as `runsLackingContext` reads it: the tools it names, the hosted MCP
 * labels and MCP servers whose tools it maps, and the places of `tool()` calls whose names the code
 * computes (they are mapped by place).
 */
export function doorsInitMaps(
  tools: ReadonlySet<string>,
  unnamed: ReadonlyArray<{ file: string; what?: string; container?: string }>,
  hosted: ReadonlyArray<{ name: string }>,
  mcpTools: ReadonlyArray<{ server: string }>,
): MappedDoors {
  return {
    functions: tools,
    hostedLabels: new Set(hosted.map((s) => s.name)),
    mcpServers: new Set(mcpTools.map((t) => t.server)),
    sites: unnamed.filter((u) => u.what === undefined).map((u) => ({ file: u.file, ...(u.container !== undefined ? { in: u.container } : {}) })),
  };
}

/** A run init names: where it is, and whether it passes no context at all (else one without the key). */
export interface RunNamed {
  file: string;
  line: number;
  none: boolean;
}

/** A key that may name who a run acts for (after {@link PRINCIPAL_KEYS}). */
const PRINCIPAL_LIKE = /user|principal|actor|account|customer|email|member|owner/i;
/**
 * What a run is about, not who it acts for: a conversation, thread, session, chat, request or
 * trace id (issue 21: init proposed `conversationId`). `sessionUser` is in {@link PRINCIPAL_KEYS}.
 */
const NOT_A_PRINCIPAL = /conversation|thread|session|chat|request|trace|message|history|turn/i;

/** Whether the proposal is the one init always wrote (its text stays as it was). */
export function isDefaultIdentity(p: IdentityProposal): boolean {
  return p.kind === 'context' && p.path.length === 1 && p.path[0] === 'user' && p.from === undefined;
}

/** How the proposal reads, for a note: `runContext.context.userId`, `$CTRLRUN_PRINCIPAL`. */
export function describeIdentity(p: IdentityProposal): string {
  return p.kind === 'env' ? `the environment variable ${p.name}` : `runContext.context.${p.path.join('.')}`;
}

/**
 * The control's `identity` property (TypeScript; init's JavaScript output strips the types), two
 * spaces in, with the comment that says where it came from. `who`: "run" or "session".
 */
export function identitySource(p: IdentityProposal, who: 'run' | 'session'): string {
  if (p.kind === 'env') {
    return `  // The principal is ${p.name} from the environment (chosen with \`init --identity env:${p.name}\`): for
  // runs no person stands behind (a script, a job). Unset or empty: every protected call is refused.
  identity: () => (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.${p.name} ?? null,`;
  }
  const type = p.path.reduceRight<string>((inner, key) => `{ ${key}?: ${inner} }`, 'string');
  const read = `context?.${p.path.join('?.')}`;
  const origin = p.from
    ? `  // From the context your code passes to run() (${p.from.file}:${p.from.line}); change it if that is not who the ${who} acts for.\n`
    : '';
  return `${origin}  // CHANGE THIS: return the principal the ${who} acts for, from your own ${who === 'run' ? 'run context (a session, an\n  // authenticated user)' : 'context (a signed-in\n  // user)'}; never from the model's arguments. Returning null refuses every call.
  identity: (runContext) => {
    const context = runContext.context as ${type} | undefined;
    return ${read} ?? null;
  },`;
}

/**
 * What init says about the identity it wrote: where it came from, and the runs that pass no
 * context (their protected calls would all be refused) unless the principal comes from elsewhere.
 */
export function identityNotes(
  p: IdentityProposal,
  chosen: boolean,
  found: ReturnType<typeof proposeIdentity>,
  controlWritten: boolean,
  without: readonly RunNamed[],
): string[] {
  const lines: string[] = [];
  if (controlWritten && p.kind === 'context' && p.from && !chosen) {
    lines.push(
      `note: the control's identity reads ${describeIdentity(p)}, from the context your code passes to run() (${p.from.file}:${p.from.line}); change it if that is not who a run acts for, or re-run with --identity`,
    );
  }
  if (controlWritten && p.kind === 'env')
    lines.push(`note: the control's identity reads ${describeIdentity(p)}: set it where the app runs, or every protected call is refused (no_principal)`);
  if (controlWritten && !chosen && found.otherKeys) {
    const keys = found.otherKeys
      .slice(0, 4)
      .map((k) => `\`${k}\``)
      .join(', ');
    lines.push(
      `note: the runs pass ${keys} in their context, and none of ${found.otherKeys.length === 1 ? 'it says' : 'them says'} who a run acts for (a conversation or session id is not a principal): ` +
        `the control's identity reads ${describeIdentity(p)} (the default). Pass the signed-in user there, or re-run with --identity <key> (\`--identity userId\`, \`--identity env:CTRLRUN_PRINCIPAL\`)`,
    );
  }
  if (p.kind === 'context' && without.length > 0) {
    const at =
      without
        .slice(0, 3)
        .map((w) => `${w.file}:${w.line}`)
        .join(', ') + (without.length > 3 ? ', …' : '');
    lines.push(
      `note: ${without.length} run${without.length === 1 ? '' : 's'} pass${without.length === 1 ? 'es' : ''} ${without.every((w) => w.none) ? 'no context' : `no \`${p.path[0]}\` in ${without.length === 1 ? 'its' : 'their'} context`} (${at}), and the identity reads ${describeIdentity(p)}: ` +
        `every protected call of ${without.length === 1 ? 'it' : 'them'} would be refused (no_principal). Pass \`{ context: { ${p.path[0]}: <who the run acts for> } }\` to run(), ` +
        'or, for runs no person stands behind, re-run with --identity env:CTRLRUN_PRINCIPAL (check reports these as run-without-context)',
    );
  }
  return lines;
}
