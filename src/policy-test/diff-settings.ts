/**
 * The settings two versions of a policy differ in, each classified: the policy's own (`mode`,
 * `environment`, the `authority:` grants and the control registry) and each action's (`effect`,
 * `resource`, `max_attempts`, `data`, `upstream`, `mcp`, and, listed for the record, `controls`
 * and `approvals_required`, whose effect on calls the regions carry). A grant's or a control's
 * change is `other` here: which calls it lets through is the regions' to say, with witnesses. Pure.
 */
import type { Policy, PolicyAction, PolicyGrant, Template } from '../policy/types.js';
import type { ChangeClass } from './classify.js';

export interface SettingChange {
  /** `mode`, `environment`, `authority`, `grant <id>`, `control <id>`, or an action's key. */
  field: string;
  before: string;
  after: string;
  class: ChangeClass;
  /** Why it is looser or tighter, when it is. */
  why?: string;
}

function show(value: unknown): string {
  return JSON.stringify(value, (k, v: unknown) => (k === 'loc' ? undefined : typeof v === 'bigint' ? v.toString() : v)) ?? 'none';
}

function change(field: string, before: unknown, after: unknown, cls: ChangeClass = 'other', why?: string): SettingChange[] {
  const text = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? 'none' : show(v));
  const b = text(before);
  const a = text(after);
  if (b === a) return [];
  return [{ field, before: b, after: a, class: cls, ...(why ? { why } : {}) }];
}

/** The arguments a template's key depends on: its placeholders, `{resource}` standing for the resource's. */
export function templateArgs(t: Template | undefined, resource?: Template): Set<string> {
  const out = new Set<string>();
  for (const p of t?.parts ?? []) {
    if (p.kind !== 'arg') continue;
    if (p.arg === 'resource' && resource) for (const r of templateArgs(resource)) out.add(r);
    else out.add(p.arg);
  }
  return out;
}

/** The keys a template renders, `{resource}` spelled out: literal runs joined, so two spellings of one key compare equal. */
function rendered(t: Template, resource: Template | undefined): string {
  const out: Array<string | { arg: string }> = [];
  const push = (p: Template['parts'][number]) => {
    if (p.kind === 'arg') out.push({ arg: p.arg });
    else if (typeof out.at(-1) === 'string') out[out.length - 1] += p.text;
    else out.push(p.text);
  };
  for (const p of t.parts) {
    if (p.kind === 'arg' && p.arg === 'resource' && resource) resource.parts.forEach(push);
    else push(p);
  }
  return JSON.stringify(out);
}

/**
 * An effect or resource key: looser when it now depends on an argument it did not (the model can
 * vary it, so the same effect runs again under a new key) or is gone (nothing keys the effect);
 * tighter when it depends on fewer, or is new; else other. An effect key that renders other keys
 * than before is looser whatever its arguments: the store finds an effect that already ran by its
 * key, so every effect recorded under an old key can run once more (a renamed literal too).
 */
function templateChange(field: 'effect' | 'resource', a: PolicyAction, b: PolicyAction): SettingChange[] {
  const before = a[field];
  const after = b[field];
  const x = field === 'effect' ? templateArgs(before, a.resource) : templateArgs(before);
  const y = field === 'effect' ? templateArgs(after, b.resource) : templateArgs(after);
  // an effect written `{resource}` changes with the resource template: shown beside it
  const text = (t: Template | undefined, r: Template | undefined) =>
    t === undefined ? null : field === 'effect' && r && templateArgs(t).has('resource') ? `${t.source} ({resource} = ${r.source})` : t.source;
  const tb = text(before, a.resource);
  const ta = text(after, b.resource);
  if (tb === ta) return [];
  const added = [...y].filter((v) => !x.has(v));
  const dropped = [...x].filter((v) => !y.has(v));
  let cls: ChangeClass = 'other';
  let why: string | undefined;
  if (before && !after)
    [cls, why] = ['looser', `no ${field} key any more${field === 'effect' ? ': a call can run again with nothing to say it already ran' : ''}`];
  else if (!before && after) [cls, why] = ['tighter', `a new ${field} key`];
  else if (added.length > 0)
    [cls, why] = [
      'looser',
      `the key now depends on ${added.map((v) => `\`${v}\``).join(', ')}, which the model chooses: the same ${field === 'effect' ? 'effect can run again' : 'resource is named another way'} under a new key`,
    ];
  else if (field === 'effect' && before && after && rendered(before, a.resource) !== rendered(after, b.resource))
    [cls, why] = ['looser', 'the keys it renders are not the ones recorded: every effect that already ran can run once more'];
  else if (dropped.length > 0) [cls, why] = ['tighter', `the key no longer depends on ${dropped.map((v) => `\`${v}\``).join(', ')}`];
  return change(field, tb, ta, cls, why);
}

function maxAttempts(a: PolicyAction, b: PolicyAction): SettingChange[] {
  const x = a.maxAttempts;
  const y = b.maxAttempts;
  if (x === y) return [];
  const looser = y === null || (x !== null && y > x);
  return change('max_attempts', x ?? 'no ceiling', y ?? 'no ceiling', looser ? 'looser' : 'tighter');
}

/** `data:` labels: an argument no longer labelled is kept in clear in the decision log (looser). */
function dataLabels(a: PolicyAction, b: PolicyAction): SettingChange[] {
  const x = new Map(a.data ?? []);
  const y = new Map(b.data ?? []);
  const dropped = [...x.keys()].filter((k) => !y.has(k));
  const added = [...y.keys()].filter((k) => !x.has(k));
  const cls: ChangeClass = dropped.length > 0 ? 'looser' : added.length > 0 ? 'tighter' : 'other';
  const why = dropped.length > 0 ? `${dropped.map((k) => `\`${k}\``).join(', ')} no longer labelled: recorded in clear` : undefined;
  return change('data', a.data ?? [], b.data ?? [], cls, why);
}

/** Upstream pins: a pin gone, or a certificate or schema trusted that was not, is looser. */
function upstream(a: PolicyAction, b: PolicyAction): SettingChange[] {
  const x = a.upstream ?? {};
  const y = b.upstream ?? {};
  const trusted = (u: typeof x) => [u.toolSchemaSha256 ?? '', ...(u.tlsCertSha256 ?? []), ...(u.tlsCertPems ?? [])];
  const pinned = (u: typeof x) => [u.toolSchemaSha256 !== undefined, (u.tlsCertSha256 ?? []).length > 0 || (u.tlsCertPems ?? []).length > 0];
  const px = pinned(x);
  const py = pinned(y);
  const newlyTrusted = trusted(y).filter((t) => t !== '' && !trusted(x).includes(t));
  const looser = px.some((p, i) => p && (!py[i] || newlyTrusted.length > 0));
  const tighter = py.some((p, i) => p && !px[i]) || trusted(x).some((t) => t !== '' && !trusted(y).includes(t));
  const view = (u: typeof x) => ({ ...u, tlsCertPems: undefined });
  return change('upstream', view(x), view(y), looser ? 'looser' : tighter ? 'tighter' : 'other');
}

/** Everything an action's settings change, both versions present. */
export function actionSettings(a: PolicyAction, b: PolicyAction): SettingChange[] {
  return [
    ...templateChange('effect', a, b),
    ...templateChange('resource', a, b),
    // carried by the regions: the approve calls they change, with witnesses
    ...change('approvals_required', a.approvalsRequired, b.approvalsRequired),
    ...change('controls', a.controls, b.controls),
    ...maxAttempts(a, b),
    ...dataLabels(a, b),
    ...upstream(a, b),
    ...change(
      'mcp.not_executed_on_error',
      a.mcp.notExecutedOnError,
      b.mcp.notExecutedOnError,
      b.mcp.notExecutedOnError ? 'looser' : 'tighter',
      b.mcp.notExecutedOnError ? 'an MCP error result now reads as not executed: the effect may be tried again' : undefined,
    ),
  ];
}

/** A grant in one line: `agent support; actions stripe.refund; amount_lte 10000; budget amount 50000 per 86400s`. */
function grantView(g: PolicyGrant): string {
  const parts: string[] = [];
  const subject = [
    g.subject.agent !== undefined ? `agent ${g.subject.agent}` : 'any agent',
    ...(g.subject.user !== undefined ? [`user ${g.subject.user}`] : []),
  ];
  parts.push(subject.join(', '), `actions ${g.actions.join(', ')}`);
  if (g.resources !== null) parts.push(`resources ${g.resources.join(', ')}`);
  for (const c of g.constraints) parts.push(`${c.key} ${show(c.value)}`);
  if (g.environments !== null) parts.push(`environments ${g.environments.join(', ')}`);
  if (g.expiresAt !== null) parts.push(`expires ${g.expiresAt.iso}`);
  if (g.tasks !== null) parts.push(`tasks ${g.tasks.join(', ')}`);
  parts.push(
    g.budgets === null || g.budgets.length === 0 ? 'no budget' : g.budgets.map((b) => `budget ${b.metric} ${b.limit} per ${b.windowSeconds}s`).join(', '),
  );
  if (g.delegable) parts.push('delegable');
  return parts.join('; ');
}

/** The policy's own settings; `base` null is "no policy": every call denied, nothing set. */
export function policySettings(a: Policy | null, b: Policy): SettingChange[] {
  const out: SettingChange[] = [];
  const mode = a?.mode ?? 'enforce';
  if (mode !== b.mode)
    out.push(
      ...change('mode', mode, b.mode, b.mode === 'observe' ? 'looser' : 'tighter', b.mode === 'observe' ? 'nothing is blocked or asked any more' : undefined),
    );
  out.push(...change('environment', a?.environment ?? null, b.environment ?? null));
  const ga = new Map((a?.authority?.grants ?? []).map((g) => [g.id, g]));
  const gb = new Map((b.authority?.grants ?? []).map((g) => [g.id, g]));
  const grants = (n: number) => `${n} grant${n === 1 ? '' : 's'}`;
  if (!a?.authority !== !b.authority) out.push(...change('authority', a?.authority ? grants(ga.size) : null, b.authority ? grants(gb.size) : null));
  else if (a?.authority && b.authority) out.push(...change('max_delegation_depth', a.authority.maxDelegationDepth, b.authority.maxDelegationDepth));
  for (const id of [...new Set([...ga.keys(), ...gb.keys()])].sort())
    out.push(...change(`grant ${id}`, ga.has(id) ? grantView(ga.get(id)!) : null, gb.has(id) ? grantView(gb.get(id)!) : null));
  const ca = a?.controls ?? {};
  for (const id of [...new Set([...Object.keys(ca), ...Object.keys(b.controls)])].sort()) {
    const view = (c: Policy['controls'][string] | undefined) => (c ? { title: c.title, source: c.source, approver_role: c.approverRole } : null);
    out.push(...change(`control ${id}`, view(Object.hasOwn(ca, id) ? ca[id] : undefined), view(Object.hasOwn(b.controls, id) ? b.controls[id] : undefined)));
  }
  return out;
}
