import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../diagnostics.js';
import { checkName } from './identity.js';
import { TENANT } from './tenant.js';

/**
 * Who may answer through `ctrlrun-gen serve`, and which agents may use it as their store.
 *
 * The list lives in a JSON file beside the default store (`.ctrlrun/operators.json`), not in the
 * store: the store interface stays the runtime's, and whoever can write the store can already
 * answer directly (see docs/operators.md). A token is shown once, when it is made; the file keeps
 * only its SHA-256 (a token is 32 random bytes, so a plain hash is enough) and a short id to name it.
 */
export type TokenKind = 'operator' | 'runtime';

export interface OperatorEntry {
  /** The normalised identity; recorded as the approver on receipts. */
  name: string;
  kind: TokenKind;
  /** Roles an operator holds; matched against the policy's `approver_role`. */
  roles: string[];
  /** The token's tenant (see runtime/tenant-names.ts); absent: a runtime token's default tenant, an operator's every tenant. */
  tenant?: string;
  /** SHA-256 hex of the token. */
  tokenHash: string;
  /** The token's first characters after its prefix, to recognise it in listings. */
  tokenId: string;
  createdAt: number;
}

export interface OperatorsFile {
  version: 1;
  operators: OperatorEntry[];
}

export const OPERATORS_FILE = path.join('.ctrlrun', 'operators.json');
const PREFIX: Record<TokenKind, string> = { operator: 'crg_op_', runtime: 'crg_rt_' };
const ROLE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newToken(kind: TokenKind): { token: string; tokenId: string; tokenHash: string } {
  const secret = randomBytes(32).toString('base64url');
  const token = `${PREFIX[kind]}${secret}`;
  return { token, tokenId: secret.slice(0, 6), tokenHash: hashToken(token) };
}

/** The entry a presented token belongs to (constant-time comparison of hashes), or undefined. */
export function findByToken(file: OperatorsFile, token: string): OperatorEntry | undefined {
  const presented = Buffer.from(hashToken(token), 'hex');
  let found: OperatorEntry | undefined;
  for (const entry of file.operators) {
    const stored = Buffer.from(entry.tokenHash, 'hex');
    if (stored.length === presented.length && timingSafeEqual(stored, presented)) found = entry;
  }
  return found;
}

export function checkRole(role: string): string {
  if (!ROLE.test(role))
    throw new UserError(
      `--role: ${JSON.stringify(role)} is not a role name.\nhint: letters, digits and . _ : - (as the policy's approver_role), e.g. --role payments-approver`,
    );
  return role;
}

/**
 * A token's tenant: a runtime token acts on that tenant's calls only; an operator with a tenant
 * sees, answers, resolves and prunes that tenant's only (without one, an operator acts on every tenant).
 */
export function checkTenant(tenant: string): string {
  if (!TENANT.test(tenant))
    throw new UserError(`--tenant: ${JSON.stringify(tenant)} is not a tenant name.\nhint: lower-case letters, digits and . _ - (up to 64), e.g. --tenant acme`);
  return tenant;
}

export function emptyOperators(): OperatorsFile {
  return { version: 1, operators: [] };
}

/** Reads the file; a missing file is an empty list. A file that is not ours is a user error. */
export function readOperators(file: string): OperatorsFile {
  if (!existsSync(file)) return emptyOperators();
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UserError(
      `${file}: not a ctrlrun-gen operators file (${(error as Error).message}).\nhint: it is written by \`ctrlrun-gen operators add\`; move it away to start again`,
    );
  }
  if (!isOperatorsFile(data))
    throw new UserError(`${file}: not a ctrlrun-gen operators file (unexpected shape).\nhint: it is written by \`ctrlrun-gen operators add\``);
  return data;
}

function isOperatorsFile(data: unknown): data is OperatorsFile {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  if (d.version !== 1 || !Array.isArray(d.operators)) return false;
  return d.operators.every(
    (o: unknown) =>
      typeof o === 'object' &&
      o !== null &&
      typeof (o as OperatorEntry).name === 'string' &&
      ((o as OperatorEntry).kind === 'operator' || (o as OperatorEntry).kind === 'runtime') &&
      Array.isArray((o as OperatorEntry).roles) &&
      ((o as OperatorEntry).tenant === undefined || TENANT.test(String((o as OperatorEntry).tenant))) &&
      typeof (o as OperatorEntry).tokenHash === 'string' &&
      /^[0-9a-f]{64}$/.test((o as OperatorEntry).tokenHash),
  );
}

/** Writes the file atomically, readable by its owner only. */
export function writeOperators(file: string, data: OperatorsFile): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** Adds an entry (a name appears once per kind) and returns the token, to be shown once. */
export function addOperator(
  data: OperatorsFile,
  input: { name: string; kind: TokenKind; roles: string[]; tenant?: string; now: number },
): { data: OperatorsFile; token: string; entry: OperatorEntry } {
  const name = checkName(input.name, 'name');
  if (input.tenant !== undefined) checkTenant(input.tenant);
  if (data.operators.some((o) => o.name === name && o.kind === input.kind)) {
    throw new UserError(
      `${name} already has ${input.kind === 'operator' ? 'an operator' : 'a runtime'} token.\nhint: \`ctrlrun-gen operators remove ${name}\` first to replace it`,
    );
  }
  const roles = [...new Set(input.roles.map(checkRole))].sort();
  const { token, tokenId, tokenHash } = newToken(input.kind);
  const entry: OperatorEntry = {
    name,
    kind: input.kind,
    roles,
    ...(input.tenant !== undefined ? { tenant: input.tenant } : {}),
    tokenHash,
    tokenId,
    createdAt: input.now,
  };
  return { data: { ...data, operators: [...data.operators, entry] }, token, entry };
}

export function removeOperator(data: OperatorsFile, rawName: string): { data: OperatorsFile; removed: OperatorEntry[] } {
  const name = checkName(rawName, 'name');
  const removed = data.operators.filter((o) => o.name === name);
  return { data: { ...data, operators: data.operators.filter((o) => o.name !== name) }, removed };
}
