import { UserError } from '../../diagnostics.js';
import { GENESIS_HASH } from '../../runtime/receipts-hash.js';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CtrlrunError } from '../../runtime/errors.js';
import { verifyReceipts, type ReceiptBreak, type SignerCount, type VerifyOptions } from '../../runtime/receipts.js';
import { generateReceiptKey } from '../../runtime/signing.js';
import type { Store } from '../../runtime/types.js';
import type { CommandSpec } from '../context.js';
import { storeOption, withStore } from '../store-url.js';
import { receiptsLog } from './receipts-log.js';
import { receiptsPrune } from './receipts-prune.js';
import { formatTable, isoTime } from '../table.js';
import { safePrinter, terminalJson } from '../../terminal-text.js';

interface StoreArgs {
  store?: string;
}

const list: CommandSpec<StoreArgs & { last?: number; json: boolean }> = {
  command: 'list',
  describe: 'List receipts in order (every decision and outcome)',
  builder: (y) =>
    y
      .option('last', { type: 'number', requiresArg: true, describe: 'Only the last N' })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON (one array)' }),
  examples: [
    ['ctrlrun-gen receipts list --last 20', 'The latest decisions'],
    ['ctrlrun-gen receipts list --json > receipts.json', 'Export every receipt'],
  ],
  run: async (args, ctx) => {
    if (args.last !== undefined && (!Number.isInteger(args.last) || args.last < 1))
      throw new UserError(`--last: expected a positive integer, got ${args.last}`);
    return withStore(args, ctx, async (store, label) => {
      const all = await store.listReceipts();
      const receipts = args.last === undefined ? all : all.slice(-args.last);
      if (args.json) {
        ctx.stdout(`${terminalJson(receipts)}\n`);
        return 0;
      }
      if (receipts.length === 0) {
        ctx.stdout(`No receipts in ${label}.\n`);
        return 0;
      }
      const p = safePrinter();
      ctx.stdout(
        formatTable(
          ['SEQ', 'AT', 'ACTION', 'DECISION', 'RESULT', 'REASON', 'PRINCIPAL', 'APPROVERS', 'EFFECT'],
          receipts.map((r) => [
            p.show(String(r.seq)),
            isoTime(r.at),
            p.show(r.action),
            p.show(r.decision ?? '-'),
            p.show(r.result),
            p.show(r.reason),
            p.show(r.principal ?? '-'),
            r.approvers.map(p.show).join(',') || '-',
            p.show(r.effect_key ?? '-'),
          ]),
        ) + p.note(),
      );
      return 0;
    });
  },
};

interface Verified {
  count: number;
  /** The newest receipt's seq (the count, unless the oldest were pruned). */
  last: number;
  /** The oldest receipts pruned, as a prune record in the chain says (0: none). */
  prunedThrough: number;
  head: string;
  signed: { seq: number; hash: string } | null;
  signers: SignerCount[];
  broken: { seq: number; kind: ReceiptBreak } | null;
}

async function verify(store: Store, options: VerifyOptions): Promise<Verified> {
  const result = await verifyReceipts(store, options);
  if (!result.ok)
    return { count: 0, last: 0, prunedThrough: 0, head: GENESIS_HASH, signed: null, signers: [], broken: { seq: result.seq, kind: result.break } };
  const prunedThrough = result.prunedThrough ?? 0;
  const lastSeq = prunedThrough + result.count;
  const last = result.count === 0 ? [] : await store.listReceipts({ afterSeq: lastSeq - 1 });
  return {
    count: result.count,
    last: lastSeq,
    prunedThrough,
    head: last[0]?.hash ?? GENESIS_HASH,
    signed: result.signed ?? null,
    signers: result.signers ?? [],
    broken: null,
  };
}

const KIND_TEXT: Record<ReceiptBreak, string> = {
  content_altered: 'its content was altered (the hash does not match)',
  link_broken: "its prev_hash is not the previous receipt's hash",
  missing: 'it is missing (deleted: no prune record names it)',
  head_mismatch: "the store's head record names a newer or other receipt: the newest receipts were deleted or replaced",
  signature_invalid: 'its signed checkpoint does not verify with this public key, or signs a hash the chain no longer has: the chain was rewritten',
  unsigned: 'no valid signed checkpoint names it: checkpoints were deleted, or it was written without the key',
  foreign:
    'it lies between signed receipts but no checkpoint by a given key names it: no holder of these keys appended it (written through the store by someone else, by an operator tool without a signing key, or signed by a key not given)',
  truncated: 'the anchor (a checkpoint an earlier verification saw) is gone or differs: the tail was cut or rewritten',
};

/** A key given inline or as a file (the file is read only when the text is not a key itself). */
function readPublicKey(value: string, cwd: string): string {
  if (value.trim().startsWith('ctrlrun-ed25519-public:')) return value.trim();
  const file = path.resolve(cwd, value);
  let text: string;
  try {
    text = readFileSync(file, { encoding: 'utf8', flag: 'r' }).slice(0, 4096);
  } catch (error) {
    throw new UserError(
      `--public-key: cannot read ${value} (${(error as NodeJS.ErrnoException).code ?? 'error'}).\nhint: pass the key itself or the .pub file \`receipts keygen\` wrote`,
    );
  }
  if (!text.trim().startsWith('ctrlrun-ed25519-public:')) throw new UserError(`--public-key: ${value} does not hold a ctrlrun-ed25519-public: key.`);
  return text.trim();
}

function readAnchor(file: string): { seq: number; hash: string } | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8').slice(0, 4096)) as { seq?: unknown; hash?: unknown };
    if (Number.isSafeInteger(parsed.seq) && typeof parsed.hash === 'string' && /^[0-9a-f]{64}$/.test(parsed.hash))
      return { seq: parsed.seq as number, hash: parsed.hash };
  } catch {
    // fall through
  }
  throw new UserError(`--anchor: ${file} is not an anchor file (JSON {"seq": N, "hash": "…"} written by receipts verify).`);
}

const verifyCommand: CommandSpec<StoreArgs & { json: boolean; publicKey?: string[]; anchor?: string }> = {
  command: 'verify',
  describe: 'Check the receipt chain (and its signed checkpoints); exit 1 naming the first break',
  builder: (y) =>
    y
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON' })
      .option('public-key', {
        type: 'string',
        array: true,
        nargs: 1,
        requiresArg: true,
        describe:
          "An Ed25519 public key (or its file), repeatable (the application's, serve's and the operators'): every receipt must be named by a valid checkpoint signed by one of them",
      })
      .option('anchor', {
        type: 'string',
        requiresArg: true,
        describe: 'A file remembering the last verified checkpoint (kept outside the store): a cut tail is detected next time',
      }),
  examples: [
    ['ctrlrun-gen receipts verify', 'Exit 0 when the evidence chain is intact, 1 at the first break'],
    [
      'ctrlrun-gen receipts verify --public-key receipts.pub --anchor ~/ctrlrun.anchor',
      'Also check the signatures, and that nothing was cut since the last run',
    ],
    [
      'ctrlrun-gen receipts verify --public-key app.key.pub --public-key serve.key.pub',
      "The application's receipts and serve's answers, each signed by its own key",
    ],
  ],
  run: async (args, ctx) => {
    const publicKeys = (args.publicKey ?? []).map((value) => readPublicKey(value, ctx.cwd));
    const publicKey = publicKeys.length > 0 ? publicKeys : undefined;
    const anchorFile = args.anchor === undefined ? undefined : path.resolve(ctx.cwd, args.anchor);
    const anchor = anchorFile ? readAnchor(anchorFile) : undefined;
    return withStore(args, ctx, async (store, label) => {
      let outcome: Verified;
      try {
        outcome = await verify(store, { ...(publicKey ? { publicKey } : {}), ...(anchor ? { anchor } : {}) });
      } catch (error) {
        if (error instanceof CtrlrunError) throw new UserError(`--public-key: ${error.message.replace(/^ctrlrun: /, '')}`);
        throw error;
      }
      const { count, last, prunedThrough, head, signed, signers, broken } = outcome;
      if (!broken && anchorFile) {
        const next = publicKey ? signed : count > 0 ? { seq: last, hash: head } : null;
        if (next) writeFileSync(anchorFile, `${JSON.stringify(next)}\n`);
      }
      if (args.json)
        ctx.stdout(
          `${JSON.stringify(broken ? { ok: false, seq: broken.seq, break: broken.kind } : { ok: true, count, head, ...(prunedThrough ? { pruned_through: prunedThrough } : {}), ...(publicKey ? { signed, signers: signers.map((k) => ({ key_id: k.keyId, receipts: k.receipts })) } : {}) })}\n`,
        );
      else if (broken) ctx.stdout(`Receipt chain broken at seq ${broken.seq}: ${broken.kind} (${KIND_TEXT[broken.kind]}). ${label}\n`);
      else {
        const by = signers.length > 1 ? `; by key ${signers.map((k) => `${k.keyId}: ${k.receipts}`).join(', ')}` : '';
        const sig = publicKey ? `, every receipt signed (last checkpoint seq ${signed?.seq ?? 0}${by})` : '';
        const pruned = prunedThrough ? `; seq 1-${prunedThrough} pruned, as an operator's prune record in the chain says` : '';
        ctx.stdout(`${count} receipt${count === 1 ? '' : 's'}, chain intact (head ${head.slice(0, 16)}…)${pruned}${sig}. ${label}\n`);
      }
      return broken ? 1 : 0;
    });
  },
};

const keygen: CommandSpec<{ out: string; force: boolean }> = {
  command: 'keygen',
  describe: 'Make an Ed25519 key pair for signed receipt checkpoints (secret to --out, public to --out.pub)',
  builder: (y) =>
    y
      .option('out', {
        type: 'string',
        demandOption: true,
        requiresArg: true,
        describe: 'Where to write the secret key (owner-only); the public key goes to the same path + .pub',
      })
      .option('force', { type: 'boolean', default: false, describe: 'Overwrite existing files' }),
  examples: [
    ['ctrlrun-gen receipts keygen --out ~/.config/ctrlrun/receipt.key', 'Then CTRLRUN_RECEIPT_KEY="$(cat ~/.config/ctrlrun/receipt.key)" for the application'],
  ],
  run: async (args, ctx) => {
    const secretFile = path.resolve(ctx.cwd, args.out);
    const publicFile = `${secretFile}.pub`;
    for (const file of [secretFile, publicFile]) {
      if (existsSync(file) && !args.force)
        throw new UserError(`${args.out}: ${path.basename(file)} exists; not overwritten.\nhint: pass --force, or another --out`);
    }
    const key = generateReceiptKey();
    writeFileSync(secretFile, `${key.secret}\n`, { mode: 0o600 });
    chmodSync(secretFile, 0o600);
    writeFileSync(publicFile, `${key.publicKey}\n`);
    ctx.stdout(
      `Secret key written to ${args.out} (owner-only; give it to the application as CTRLRUN_RECEIPT_KEY, never to the store).\n` +
        `Public key (key id ${key.keyId}), also in ${args.out}.pub:\n${key.publicKey}\n` +
        `Verify with: ctrlrun-gen receipts verify --public-key ${args.out}.pub\n`,
    );
    return 0;
  },
};

export const receiptsCommand: CommandSpec<StoreArgs> = {
  command: 'receipts',
  describe: 'List receipts and the decision log; verify the evidence chain; make a signing key',
  builder: (y) => y.option('store', storeOption),
  subcommands: [list, receiptsLog, receiptsPrune, verifyCommand, keygen],
  examples: [
    ['ctrlrun-gen receipts verify', 'Check the chain'],
    ['ctrlrun-gen receipts list --last 10 --json', 'The last ten, as JSON'],
  ],
  run: async () => 2, // never called: a subcommand is required
};
