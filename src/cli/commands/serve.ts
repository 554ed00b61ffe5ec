import { DEFAULT_MAX_GRANT_HOURS } from '../../runtime/approval-grants.js';
import path from 'node:path';
import { UserError } from '../../diagnostics.js';
import { loadProject } from '../../manifest/load.js';
import { refusePlainFolder } from '../plain-folder.js';
import { loadPolicyOrThrow } from '../../policy/load.js';
import type { Policy } from '../../policy/types.js';
import { DEFAULT_APPROVAL_TTL_MS } from '../../runtime/control.js';
import { MAX_RETENTION_DAYS, retentionDays } from '../../serve/prune-api.js';
import { fatigueOf } from '../../insights/period.js';
import { fatigueOptions } from './stats.js';
import { checkCorsOrigin, startServe } from '../../serve/server.js';
import type { CliContext, CommandSpec } from '../context.js';
import { withProjectOptions } from '../project-options.js';
import { operatorSigner, signingKeyOption } from '../signing-key.js';
import { storeOption, withStore } from '../store-url.js';
import { operatorsFile, operatorsOption } from './operators.js';

export interface ServeArgs {
  store?: string;
  operators?: string;
  manifest?: string;
  policy?: string;
  host: string;
  port: number;
  'tls-cert'?: string;
  'tls-key'?: string;
  'allow-insecure-network': boolean;
  'trust-header'?: string;
  'trust-proxy'?: string[];
  'notify-webhook'?: string;
  'public-url'?: string;
  'cors-origin'?: string[];
  'approval-ttl-ms': number;
  'max-grant-hours': number;
  'signing-key'?: string;
  'retention-days': number;
  'fatigue-answers'?: number;
  'fatigue-window'?: string;
  'fatigue-min-time'?: string;
}

/** serve's default retention of the decision log (the days the application's own pruning kept before it became an operator's act). */
export const DEFAULT_RETENTION_DAYS = 30;

export const serveCommand: CommandSpec<ServeArgs> = {
  command: 'serve',
  describe: 'Serve the approvals inbox (a web page and a JSON API) over the project store, for authenticated operators',
  builder: (y) =>
    withProjectOptions(y)
      .option('store', storeOption)
      .option('operators', operatorsOption)
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on (a non-loopback one needs TLS or --allow-insecure-network)' })
      .option('port', { type: 'number', default: 8787, describe: 'Port (0: any free port)' })
      .option('tls-cert', { type: 'string', describe: 'PEM certificate: serve HTTPS' })
      .option('tls-key', { type: 'string', describe: 'PEM private key for --tls-cert' })
      .option('allow-insecure-network', { type: 'boolean', default: false, describe: 'Listen on a non-loopback address over plain HTTP anyway' })
      .option('trust-header', {
        type: 'string',
        describe: 'Identity header set by a reverse proxy (e.g. X-Forwarded-Email), honoured only from --trust-proxy addresses',
      })
      .option('trust-proxy', { type: 'string', array: true, describe: 'Address of the reverse proxy allowed to set --trust-header (repeatable)' })
      .option('notify-webhook', { type: 'string', describe: 'POST Slack-compatible JSON here for each new pending request' })
      .option('cors-origin', {
        type: 'string',
        array: true,
        describe: "A browser app's origin allowed to call the JSON API (httpStore in the browser; repeatable)",
      })
      .option('public-url', { type: 'string', describe: 'The URL people open (for links in notifications; default: the listening URL)' })
      .option('approval-ttl-ms', {
        type: 'number',
        default: DEFAULT_APPROVAL_TTL_MS,
        describe: "The control's approvalTtlMs (to show when an approval runs out)",
      })
      .options(fatigueOptions)
      .option('max-grant-hours', {
        type: 'number',
        default: DEFAULT_MAX_GRANT_HOURS,
        describe: 'The longest approval grant an operator may give while answering ("the same for N hours"; 0: no grants)',
      })
      .option('retention-days', {
        type: 'number',
        default: DEFAULT_RETENTION_DAYS,
        describe: "Prune the decision log's entries older than this many days, on serve's clock, at start and hourly (recorded; 0: never)",
      })
      .option('signing-key', {
        ...signingKeyOption,
        describe: `serve's own Ed25519 secret key file (\`receipts keygen\`): signs every receipt serve writes (answers, refusals, resolutions); default $CTRLRUN_RECEIPT_KEY, else they stay unsigned (\`foreign\` to verify --public-key)`,
      }),
  examples: [
    ['ctrlrun-gen serve', 'The inbox on http://127.0.0.1:8787 over .ctrlrun/state.db'],
    ['ctrlrun-gen serve --store postgres://ops@db/app --port 9000', 'Over a Postgres store'],
    ['ctrlrun-gen serve --trust-header X-Forwarded-Email --trust-proxy 127.0.0.1', 'Behind an authenticating proxy on this host'],
    ['ctrlrun-gen serve --cors-origin http://localhost:3000', "Let a browser agent's page (httpStore) on that origin use the API"],
    ['ctrlrun-gen serve --notify-webhook https://hooks.example.com/T000/B000', 'Post each new request to a chat channel'],
    ['ctrlrun-gen serve --signing-key ~/.config/ctrlrun/serve.key', "Sign the answers' receipts (verify with the app's and this key's .pub)"],
    ['ctrlrun-gen serve --max-grant-hours 2', 'Let approvers grant the same for at most 2 hours'],
    ['ctrlrun-gen serve --retention-days 7', "Keep the decision log's entries a week (pruned on serve's clock, each prune recorded)"],
    [
      'ctrlrun-gen serve --store postgres://ops@db/app --public-url https://approvals.example.com',
      'One of several replicas behind a TLS proxy (they share the sessions)',
    ],
  ],
  run: async (args, ctx) => {
    if (Boolean(args['tls-cert']) !== Boolean(args['tls-key'])) throw new UserError('--tls-cert and --tls-key go together.\nhint: give both PEM files');
    if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new UserError(`--port ${args.port}: not a port (0-65535).`);
    if (args['notify-webhook'] !== undefined && !/^https?:\/\//.test(args['notify-webhook']))
      throw new UserError(`--notify-webhook ${args['notify-webhook']}: not an http(s) URL.`);
    for (const origin of args['cors-origin'] ?? []) checkCorsOrigin(origin);
    const retention = args['retention-days'];
    if (!(retention === 0 || (retentionDays(retention) !== undefined && retention >= 1)))
      throw new UserError(`--retention-days ${retention}: a number of days from 1 to ${MAX_RETENTION_DAYS}, or 0 (serve never prunes).`);
    if (args['public-url'] !== undefined && !/^https?:\/\/[^/]/.test(args['public-url']))
      throw new UserError(`--public-url ${args['public-url']}: not an http(s) URL.\nhint: the address people open, e.g. https://approvals.example.com`);
    const fatigue = fatigueOf({ fatigueAnswers: args['fatigue-answers'], fatigueWindow: args['fatigue-window'], fatigueMinTime: args['fatigue-min-time'] });
    if (!fatigue.ok) throw new UserError(`--${fatigue.message}`);
    const maxGrantHours = args['max-grant-hours'];
    if (!Number.isFinite(maxGrantHours) || maxGrantHours < 0)
      throw new UserError(`--max-grant-hours ${maxGrantHours}: a number of hours, 0 or more (0: no grants).`);
    const policy = loadServePolicy(args, ctx);
    const signer = operatorSigner(args['signing-key'], ctx);
    return withStore(
      args,
      ctx,
      async (store, label) => {
        const running = await startServe({
          store,
          policy,
          operatorsFile: operatorsFile(args, ctx),
          host: args.host,
          port: args.port,
          ...(args['tls-cert'] && args['tls-key']
            ? { tls: { cert: path.resolve(ctx.cwd, args['tls-cert']), key: path.resolve(ctx.cwd, args['tls-key']) } }
            : {}),
          allowInsecureNetwork: args['allow-insecure-network'],
          ...(args['trust-header'] ? { trustHeader: args['trust-header'] } : {}),
          trustProxies: args['trust-proxy'] ?? [],
          ...(args['notify-webhook'] ? { notifyWebhook: args['notify-webhook'] } : {}),
          ...(args['public-url'] ? { publicUrl: args['public-url'] } : {}),
          corsOrigins: args['cors-origin'] ?? [],
          approvalTtlMs: args['approval-ttl-ms'],
          maxGrantHours,
          ...(retention > 0 ? { retentionDays: retention } : {}),
          // given any --fatigue-* flag, each finding is also recorded as a receipt when the answer is given
          fatigue: { rules: fatigue.value.rules, record: fatigue.value.given },
          ...(signer ? { signer } : {}),
          log: (line) => ctx.stderr(`${line}\n`),
        });
        // the signal handlers first: a supervisor may stop serve as soon as it reads the line below
        const stopped = new Promise<void>((resolve) => {
          const stop = () => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            resolve();
          };
          process.on('SIGINT', stop);
          process.on('SIGTERM', stop);
        });
        ctx.stdout(
          `Serving the approvals inbox on ${running.url}/ (store ${label}).\nOpen it and sign in with a token from \`ctrlrun-gen operators add NAME\`. Ctrl-C stops.\n`,
        );
        ctx.stdout(
          signer
            ? `Receipts serve writes are signed (key id ${signer.keyId}).\n`
            : 'Receipts serve writes are not signed (no --signing-key or $CTRLRUN_RECEIPT_KEY): `receipts verify --public-key` reports them foreign.\n',
        );
        ctx.stdout(
          retention > 0
            ? `Decision log entries older than ${retention} days are pruned on serve's clock (each prune recorded; --retention-days 0: never).\n`
            : 'serve never prunes the decision log (--retention-days 0): prune with `ctrlrun-gen receipts prune`.\n',
        );
        await stopped;
        await running.close();
        return 0;
      },
      { create: true },
    );
  },
};

/** The project's policy (`--manifest`/`--policy`), which serve and the MCP console need: roles and explanations come from it. */
export function loadServePolicy(
  args: { manifest?: string | undefined; policy?: string | undefined },
  ctx: CliContext,
  who = 'serve',
  invocation = who,
): Policy {
  if (args.policy !== undefined && args.manifest === undefined) return loadPolicyOrThrow(path.resolve(ctx.cwd, args.policy)).policy;
  // in a plain folder of projects: the manifests below it, rather than "no manifest found"
  if (args.manifest === undefined) refusePlainFolder(ctx.cwd, who, invocation);
  try {
    return loadProject({
      cwd: ctx.cwd,
      ...(args.manifest !== undefined ? { manifest: args.manifest } : {}),
      ...(args.policy !== undefined ? { policy: args.policy } : {}),
    }).policy;
  } catch (error) {
    if (error instanceof UserError)
      throw new UserError(
        `${error.message}\nhint: ${who} needs the policy (roles and explain come from it); run it in the project, or pass --policy`,
        error.diagnostics,
      );
    throw error;
  }
}
