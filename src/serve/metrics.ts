import { eventOfReceipt, type ObservedEvent } from '../runtime/observe/event.js';
import type { ApprovalRequest, EffectRecord, Receipt, Store } from '../runtime/types.js';

/**
 * serve's `/metrics`: the store's decisions, refusals, answers, approval latency, pending and
 * expired requests and ambiguous effects, in the Prometheus text format (0.0.4), per tenant. Pure
 * but for `readMetricsSource`; the tenant of a record is the one its stored names say (`@T:`).
 */

/** Approval latency buckets, in seconds: a minute to a day. */
export const LATENCY_BUCKETS = [10, 30, 60, 300, 900, 1800, 3600, 14_400, 86_400];

/** What a scrape reads: the whole store's receipts, requests and ambiguous keys. */
export interface MetricsSource {
  receipts: readonly Receipt[];
  requests: readonly ApprovalRequest[];
  ambiguous: readonly EffectRecord[];
}

export async function readMetricsSource(store: Store): Promise<MetricsSource> {
  const [receipts, requests, ambiguous] = await Promise.all([store.listReceipts(), store.listRequests(), store.listEffects({ state: 'ambiguous' })]);
  return { receipts, requests, ambiguous };
}

/** Who may see which tenant's series: every tenant (an operator without one), or one (`undefined`: the default tenant). */
export type MetricsScope = { all: true } | { all: false; tenant: string | undefined };

const STORED = /^@([^:]+):/;
/** The tenant a stored name belongs to (undefined: the default tenant). */
export function tenantOfName(name: string | null | undefined): string | undefined {
  const m = name ? STORED.exec(name) : null;
  return m ? m[1] : undefined;
}

/** A reason as a label: this library's words as they are; anything else (free text, a value) by its leading word, else `other`. */
export function reasonLabel(reason: string): string {
  if (/^[a-z_]+(\[\d+\])?$/.test(reason)) return reason;
  const word = /^([a-z_]+):/.exec(reason);
  return word ? word[1]! : 'other';
}

type Labels = Record<string, string>;

/** One metric family: its series by label set. */
class Family {
  readonly series = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly type: 'counter' | 'gauge',
    readonly help: string,
  ) {}
  add(labels: Labels, by = 1): void {
    const key = JSON.stringify(labels);
    const s = this.series.get(key);
    if (s) s.value += by;
    else this.series.set(key, { labels, value: by });
  }
}

const DECIDING = new Set(['decision', 'pause', 'claim', 'reservation']);

/** The families of one scrape, counted over the source, only for the tenants `scope` may see. */
export function metricsText(source: MetricsSource, scope: MetricsScope): string {
  const visible = (tenant: string | undefined) => scope.all || scope.tenant === tenant;
  const decisions = new Family('ctrlrun_decisions_total', 'counter', 'Calls decided, by action, decision and outcome (the receipt result)');
  const refusals = new Family('ctrlrun_refusals_total', 'counter', 'Calls refused, by action and reason');
  const answers = new Family('ctrlrun_answers_total', 'counter', 'Answers recorded, by action and answer (approved, answered, rejected)');
  const expired = new Family('ctrlrun_approvals_expired_total', 'counter', 'Approvals refused at their claim because they expired');
  const ambiguousOutcomes = new Family('ctrlrun_effects_ambiguous_total', 'counter', 'Bodies whose outcome was unknown (the key became ambiguous)');
  const pending = new Family('ctrlrun_approvals_pending', 'gauge', 'Approval requests waiting for an answer');
  const ambiguousNow = new Family('ctrlrun_effects_ambiguous', 'gauge', 'Effect keys ambiguous now (an operator resolves them)');
  const base = (tenant: string | undefined, action: string): Labels => (tenant === undefined ? { action } : { tenant, action });
  for (const r of source.receipts) {
    const event = eventOfReceipt(r);
    const tenant = tenantOfName(r.call_id ?? r.effect_key);
    if (event === null || !visible(tenant)) continue;
    countEvent(event, base(tenant, event.action), { decisions, refusals, answers, expired, ambiguousOutcomes });
  }
  const latency = new Map<string, { labels: Labels; seconds: number[] }>();
  for (const q of source.requests) {
    const tenant = tenantOfName(q.callId);
    if (!visible(tenant)) continue;
    const labels = base(tenant, q.action);
    if (q.state === 'pending') pending.add(labels);
    if (q.decidedAt === undefined) continue;
    const key = JSON.stringify(labels);
    const entry = latency.get(key) ?? { labels, seconds: [] };
    entry.seconds.push(Math.max(0, q.decidedAt - q.createdAt) / 1000);
    latency.set(key, entry);
  }
  for (const e of source.ambiguous) if (visible(tenantOfName(e.key))) ambiguousNow.add(base(tenantOfName(e.key), e.action));
  const families = [decisions, refusals, answers, expired, ambiguousOutcomes, pending, ambiguousNow].map(render);
  families.push(histogram('ctrlrun_approval_duration_seconds', 'From a pause to its answer (requests answered, by the store)', [...latency.values()]));
  return `${families.join('')}`;
}

function countEvent(event: ObservedEvent, labels: Labels, f: Record<'decisions' | 'refusals' | 'answers' | 'expired' | 'ambiguousOutcomes', Family>): void {
  if (DECIDING.has(event.kind)) f.decisions.add({ ...labels, decision: event.decision ?? 'none', outcome: event.outcome });
  if (event.refused) f.refusals.add({ ...labels, reason: reasonLabel(event.reason) });
  if (event.kind === 'answer' && !event.refused) f.answers.add({ ...labels, answer: event.outcome });
  if (event.reason === 'approval_expired') f.expired.add(labels);
  if (event.outcome === 'ambiguous') f.ambiguousOutcomes.add(labels);
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels: Labels) => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
};
const header = (name: string, type: string, help: string) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`;

function render(f: Family): string {
  const lines = [...f.series.values()].sort((a, b) => (JSON.stringify(a.labels) < JSON.stringify(b.labels) ? -1 : 1));
  return header(f.name, f.type, f.help) + lines.map((s) => `${f.name}${labelText(s.labels)} ${s.value}\n`).join('');
}

function histogram(name: string, help: string, series: { labels: Labels; seconds: number[] }[]): string {
  let out = header(name, 'histogram', help);
  for (const { labels, seconds } of series) {
    for (const le of LATENCY_BUCKETS) out += `${name}_bucket${labelText({ ...labels, le: String(le) })} ${seconds.filter((s) => s <= le).length}\n`;
    out += `${name}_bucket${labelText({ ...labels, le: '+Inf' })} ${seconds.length}\n`;
    out += `${name}_sum${labelText(labels)} ${seconds.reduce((a, b) => a + b, 0)}\n`;
    out += `${name}_count${labelText(labels)} ${seconds.length}\n`;
  }
  return out;
}
