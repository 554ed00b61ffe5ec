/** `diff`'s reports: text, JSON, markdown (ready for a pull-request comment). Pure. */
import type { CallDecision } from '../runtime/types.js';
import type { ActionDiff, DecisionChange, PolicyDiff, SettingChange } from './diff.js';
import { transition } from './oversight.js';
import { jsonSafe, showValue } from './show.js';

export type ReportFormat = 'text' | 'json' | 'markdown';
export interface DiffLabels {
  base: string;
  head: string;
}
/** How many changed calls of one action the text and markdown reports show (JSON has them all). */
export const SHOWN_CALLS = 12;

export function formatDiff(diff: PolicyDiff, format: ReportFormat, labels: DiffLabels): string {
  if (format === 'json') return diffJson(diff, labels);
  if (format === 'markdown') return diffMarkdown(diff, labels);
  return diffText(diff, labels);
}

function why(d: CallDecision): string {
  return d.reason;
}

function sign(kind: ActionDiff['kind']): string {
  return kind === 'added' ? '+' : kind === 'removed' ? '-' : '~';
}

function setting(s: SettingChange): string {
  return `${s.field}: ${s.before} → ${s.after}${s.looser ? '  (looser)' : ''}`;
}

function summaryLine(diff: PolicyDiff): string {
  const s = diff.summary;
  const settings = s.looserSettings > 0 ? `; ${s.looserSettings} setting${s.looserSettings === 1 ? '' : 's'} looser` : '';
  return `${s.added} added, ${s.removed} removed, ${s.changed} changed; ${s.callsChanged} witness call${s.callsChanged === 1 ? '' : 's'} change decision (${s.looserCalls} looser, ${s.tighterCalls} tighter)${settings}`;
}

function diffText(diff: PolicyDiff, labels: DiffLabels): string {
  const out = [`policy diff: ${labels.base} (${diff.base.hash.slice(0, 19)}) → ${labels.head} (${diff.head.hash.slice(0, 19)})`];
  if (diff.actions.length === 0 && diff.settings.length === 0) return `${out[0]}\nno change: every action decides as before\n`;
  if (diff.schemaNote) out.push(`note: ${diff.schemaNote}`);
  for (const s of diff.settings) out.push(`  ${setting(s)}`);
  for (const a of diff.actions) {
    out.push(
      `${sign(a.kind)} ${a.action} (${a.kind}): ${a.calls.length} of ${a.witnesses} witness call${a.witnesses === 1 ? '' : 's'}${within(a)} change decision`,
    );
    if (a.schema && 'unread' in a.schema) out.push(`    ${unread(a.schema.unread)}`);
    for (const s of a.settings) out.push(`    ${setting(s)}`);
    for (const c of a.calls.slice(0, SHOWN_CALLS))
      out.push(
        `    ${transition(c.before.decision, c.after.decision)}${c.looser ? ' (looser)' : ''}  ${showValue(c.args)}  ${why(c.before)} → ${why(c.after)}`,
      );
    if (a.calls.length > SHOWN_CALLS) out.push(`    … and ${a.calls.length - SHOWN_CALLS} more (--format json lists them all)`);
  }
  out.push(`summary: ${summaryLine(diff)}`);
  return `${out.join('\n')}\n`;
}

/** ` within the schema of tool \`refund\`` when the witnesses were kept within one. */
function within(a: ActionDiff): string {
  if (!a.schema || !('tools' in a.schema)) return '';
  const tools = a.schema.tools.map((t) => `\`${t}\``);
  return ` within the schema of tool${tools.length === 1 ? '' : 's'} ${tools.join(', ')}`;
}

function unread(reason: string): string {
  return `witnesses not limited to a schema: ${reason}`;
}

function callJson(c: DecisionChange): unknown {
  const side = (d: CallDecision) => ({ decision: d.decision, rule: d.rule, reason: d.reason, effect_key: d.effectKey, resource: d.resource });
  return { args: c.args, before: side(c.before), after: side(c.after), looser: c.looser };
}

function diffJson(diff: PolicyDiff, labels: DiffLabels): string {
  const body = {
    base: { label: labels.base, hash: diff.base.hash },
    head: { label: labels.head, hash: diff.head.hash },
    settings: diff.settings,
    ...(diff.schemaNote ? { schema_note: diff.schemaNote } : {}),
    actions: diff.actions.map((a) => ({
      action: a.action,
      kind: a.kind,
      settings: a.settings,
      witnesses: a.witnesses,
      ...(a.schema ? { schema: a.schema } : {}),
      calls: a.calls.map(callJson),
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

function diffMarkdown(diff: PolicyDiff, labels: DiffLabels): string {
  const out = [`### Policy diff: \`${labels.base}\` → \`${labels.head}\``, ''];
  if (diff.actions.length === 0 && diff.settings.length === 0) return `${out.join('\n')}\nNo change: every action decides as before.\n`;
  out.push(`**${summaryLine(diff)}**`, '');
  if (diff.schemaNote) out.push(`Note: ${diff.schemaNote}.`, '');
  if (diff.settings.length > 0)
    out.push(...diff.settings.map((s) => `- ${s.looser ? '⚠️ ' : ''}\`${s.field}\`: ${cell(s.before, true)} → ${cell(s.after, true)}`), '');
  for (const a of diff.actions) {
    out.push(`#### ${sign(a.kind)} \`${a.action}\` (${a.kind})`, '');
    if (a.schema && 'unread' in a.schema) out.push(`_${cell(unread(a.schema.unread))}_`, '');
    for (const s of a.settings) out.push(`- ${s.looser ? '⚠️ ' : ''}\`${s.field}\`: ${cell(s.before, true)} → ${cell(s.after, true)}`);
    if (a.settings.length > 0) out.push('');
    if (a.calls.length === 0) {
      out.push(`No witness call${within(a)} changes decision (${a.witnesses} tried).`, '');
      continue;
    }
    if (within(a)) out.push(`Witness calls${within(a)}:`, '');
    out.push('| change | call | before | after |', '| --- | --- | --- | --- |');
    for (const c of a.calls.slice(0, SHOWN_CALLS)) {
      out.push(
        `| ${c.looser ? '⚠️ ' : ''}${transition(c.before.decision, c.after.decision)} | ${cell(showValue(c.args), true)} | ${cell(why(c.before))} | ${cell(why(c.after))} |`,
      );
    }
    if (a.calls.length > SHOWN_CALLS) out.push('', `… and ${a.calls.length - SHOWN_CALLS} more.`);
    out.push('');
  }
  return `${out.join('\n')}`;
}
