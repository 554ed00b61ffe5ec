/** `diff`'s reports: text, JSON, markdown (ready for a pull-request comment). Pure. */
import type { DecidedCall } from './decider.js';
import type { ActionDiff, PolicyDiff, RegionDiff, SettingChange, WitnessCall } from './diff.js';
import { jsonSafe, showValue } from './show.js';

export type ReportFormat = 'text' | 'json' | 'markdown';
export interface DiffLabels {
  base: string;
  head: string;
}
/** How many regions of one action the text and markdown reports show (JSON has them all). */
export const SHOWN_REGIONS = 12;

export function formatDiff(diff: PolicyDiff, format: ReportFormat, labels: DiffLabels): string {
  if (format === 'json') return diffJson(diff, labels);
  if (format === 'markdown') return diffMarkdown(diff, labels);
  return diffText(diff, labels);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function sign(kind: ActionDiff['kind']): string {
  return kind === 'added' ? '+' : kind === 'removed' ? '-' : kind === 'remapped' ? '>' : '~';
}

function setting(s: SettingChange): string {
  return `${s.field}: ${s.before} → ${s.after}${s.class === 'other' ? '' : `  (${s.class}${s.why ? `: ${s.why}` : ''})`}`;
}

function summaryLine(diff: PolicyDiff): string {
  const s = diff.summary;
  const settings = s.looserSettings + s.tighterSettings + s.otherSettings;
  const settingText =
    settings > 0 ? `; ${plural(settings, 'setting')} changed (${s.looserSettings} looser, ${s.tighterSettings} tighter, ${s.otherSettings} other)` : '';
  const remapped = s.remapped > 0 ? `, ${plural(s.remapped, 'tool')} mapped to another action` : '';
  return `${s.added} added, ${s.removed} removed, ${s.changed} changed${remapped}; ${plural(s.regions, 'region')} of calls change (${s.looser} looser, ${s.tighter} tighter, ${s.other} other)${settingText}`;
}

/** `{"amount":600}`, then who asks, where, for what and when, when grants read them. */
export function witnessText(w: WitnessCall): string {
  const parts = [showValue(w.args)];
  const sent = sentHint(w);
  if (sent) parts.push(sent);
  if (w.principal) parts.push(`as ${showValue(w.principal.agent)}${w.principal.user === null ? '' : `/${showValue(w.principal.user)}`}`);
  if (w.environment) parts.push(`in ${showValue(w.environment)}`);
  if (w.task) parts.push(`for task ${showValue(w.task)}`);
  if (w.at) parts.push(`at ${w.at}`);
  return parts.join(' ');
}

/**
 * `(sent as {}: the tool fills in limit)`: a value only the tool's fill-in gives, which the call
 * the model sends leaves out; or one only a `.catch()` gives, which the model sends refused.
 */
function sentHint(w: WitnessCall): string | undefined {
  const filled = w.sent ? Object.keys(w.args).filter((k) => !Object.hasOwn(w.sent!, k)) : [];
  const replaced = (w.replaced ?? []).map((k) => `refuses ${k} ${showValue(w.args[k]!)} and puts its .catch() value ${showValue(w.args[k]!)} in its place`);
  const does = [...(filled.length > 0 ? [`fills in ${filled.join(', ')}`] : []), ...replaced];
  return does.length > 0 ? `(sent as ${showValue(w.sent ?? w.args)}: the tool ${does.join('; it ')})` : undefined;
}

/** `allow (rule[0], grant support)`: the grant only where it authorized a call that runs. */
function why(d: DecidedCall): string {
  return `${d.decision} (${d.reason}${d.grant && d.decision !== 'deny' ? `, grant ${d.grant}` : ''})`;
}

function whereText(r: RegionDiff): string {
  return r.where.length === 0 ? 'every call' : r.where.map((w) => `${w.name} ${w.text}`).join('; ');
}

function baseLabel(diff: PolicyDiff, labels: DiffLabels): string {
  return diff.base ? `${labels.base} (${diff.base.hash.slice(0, 19)})` : `${labels.base} (no policy: every call denied)`;
}

function header(a: ActionDiff): string {
  const n = a.regions.length;
  const by = (c: string) => a.regions.filter((r) => r.class === c).length;
  const counts =
    n === 0 ? 'no call changes' : `${plural(n, 'region')} of calls change (${by('looser')} looser, ${by('tighter')} tighter, ${by('other')} other)`;
  return `${counts}${within(a)}`;
}

function diffText(diff: PolicyDiff, labels: DiffLabels): string {
  const out = [`policy diff: ${baseLabel(diff, labels)} → ${labels.head} (${diff.head.hash.slice(0, 19)})`];
  if (diff.actions.length === 0 && diff.settings.length === 0) return `${out[0]}\nno change: every call is decided as before\n`;
  if (diff.schemaNote) out.push(`note: ${diff.schemaNote}`);
  for (const s of diff.settings) out.push(`  ${setting(s)}`);
  for (const a of diff.actions) {
    out.push(`${sign(a.kind)} ${a.action} (${a.kind}): ${header(a)}`);
    if (a.schema && 'unread' in a.schema) out.push(`    ${unread(a.schema.unread)}`);
    for (const s of a.settings) out.push(`    ${setting(s)}`);
    for (const r of a.regions.slice(0, SHOWN_REGIONS)) {
      out.push(`    ${r.class.padEnd(7)} ${r.what.join('; ')}  where ${whereText(r)}`);
      out.push(`            e.g. ${witnessText(r.witness)}: ${why(r.before)} → ${why(r.after)}`);
    }
    if (a.regions.length > SHOWN_REGIONS) out.push(`    … and ${a.regions.length - SHOWN_REGIONS} more (--format json lists them all)`);
    if (a.truncated) out.push('    … and more regions than the procedure lists (its limit); the ones shown are exact');
  }
  out.push(`summary: ${summaryLine(diff)}`);
  return `${out.join('\n')}\n`;
}

/** ` within the schema of tool \`refund\`` when the calls were kept within one. */
function within(a: ActionDiff): string {
  if (!a.schema || !('tools' in a.schema)) return '';
  const tools = a.schema.tools.map((t) => `\`${t}\``);
  return ` within the schema of tool${tools.length === 1 ? '' : 's'} ${tools.join(', ')}`;
}

function unread(reason: string): string {
  return `calls not limited to a schema: ${reason}`;
}

function side(d: DecidedCall) {
  return { decision: d.decision, rule: d.rule, reason: d.reason, effect_key: d.effectKey, resource: d.resource, ...(d.grant ? { grant: d.grant } : {}) };
}

function regionJson(r: RegionDiff): unknown {
  return { class: r.class, what: r.what, where: r.where, witness: r.witness, before: side(r.before), after: side(r.after) };
}

function diffJson(diff: PolicyDiff, labels: DiffLabels): string {
  const body = {
    base: { label: labels.base, hash: diff.base?.hash ?? null, ...(diff.base ? {} : { none: 'no policy: every call denied' }) },
    head: { label: labels.head, hash: diff.head.hash },
    settings: diff.settings,
    ...(diff.schemaNote ? { schema_note: diff.schemaNote } : {}),
    actions: diff.actions.map((a) => ({
      action: a.action,
      kind: a.kind,
      settings: a.settings,
      ...(a.schema ? { schema: a.schema } : {}),
      regions: a.regions.map(regionJson),
      ...(a.truncated ? { truncated: true } : {}),
    })),
    summary: diff.summary,
  };
  return `${JSON.stringify(jsonSafe(body), null, 2)}\n`;
}

/** A table cell: pipes escaped, code in backticks (a backtick in the value widens the fence). */
export function cell(text: string, code = false): string {
  const t = text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  if (!code) return t;
  const fence = t.includes('`') ? '`` ' : '`';
  return `${fence}${t}${fence === '`` ' ? ' ``' : '`'}`;
}

function settingLine(s: SettingChange): string {
  const mark = s.class === 'looser' ? '⚠️ ' : '';
  const note = s.class === 'other' ? '' : ` (${s.class}${s.why ? `: ${cell(s.why)}` : ''})`;
  return `- ${mark}\`${s.field}\`: ${cell(s.before, true)} → ${cell(s.after, true)}${note}`;
}

function diffMarkdown(diff: PolicyDiff, labels: DiffLabels): string {
  const out = [`### Policy diff: \`${labels.base}\`${diff.base ? '' : ' (no policy: every call denied)'} → \`${labels.head}\``, ''];
  if (diff.actions.length === 0 && diff.settings.length === 0) return `${out.join('\n')}\nNo change: every call is decided as before.\n`;
  out.push(`**${summaryLine(diff)}**`, '');
  if (diff.schemaNote) out.push(`Note: ${diff.schemaNote}.`, '');
  if (diff.settings.length > 0) out.push(...diff.settings.map(settingLine), '');
  for (const a of diff.actions) {
    out.push(`#### ${sign(a.kind)} \`${a.action}\` (${a.kind})`, '');
    if (a.schema && 'unread' in a.schema) out.push(`_${cell(unread(a.schema.unread))}_`, '');
    for (const s of a.settings) out.push(settingLine(s));
    if (a.settings.length > 0) out.push('');
    if (a.regions.length === 0) {
      out.push(`No call${within(a)} is decided differently.`, '');
      continue;
    }
    if (within(a)) out.push(`Calls${within(a)}:`, '');
    out.push('| change | calls | e.g. | before | after |', '| --- | --- | --- | --- | --- |');
    for (const r of a.regions.slice(0, SHOWN_REGIONS)) {
      out.push(
        `| ${r.class === 'looser' ? '⚠️ ' : ''}${r.class}: ${cell(r.what.join('; '))} | ${cell(whereText(r))} | ${cell(witnessText(r.witness), true)} | ${cell(why(r.before))} | ${cell(why(r.after))} |`,
      );
    }
    if (a.regions.length > SHOWN_REGIONS) out.push('', `… and ${a.regions.length - SHOWN_REGIONS} more.`);
    out.push('');
  }
  return `${out.join('\n')}`;
}

/**
 * Several packages' reports (a workspace root) as one: text and markdown one after another (each
 * names its policy), JSON as `{ "packages": [...] }` of each package's own object.
 */
export function joinReports(reports: readonly string[], format: ReportFormat): string {
  if (reports.length === 1) return reports[0]!;
  if (format === 'json') return `${JSON.stringify({ packages: reports.map((r) => JSON.parse(r) as unknown) }, null, 2)}\n`;
  return reports.join('\n');
}
