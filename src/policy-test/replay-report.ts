/** `replay`'s reports: text, JSON, markdown (for a pull-request comment). Pure. */
import { cell, type ReportFormat } from './diff-report.js';
import { transition } from './oversight.js';
import type { RecordedCall } from './calls-file.js';
import type { ReplayResult } from './replay.js';
import { jsonSafe } from './show.js';

function summary(r: ReplayResult): string {
  const s = r.summary;
  return `${r.replayed} call${r.replayed === 1 ? '' : 's'} replayed: ${s.changed} change decision (${s.looser} looser, ${s.tighter} tighter), ${r.unchanged} unchanged, ${s.undecidable} undecidable`;
}

/** A keyed hash as a reader needs it (its first 12 digits): 64 more say nothing to a reviewer and crowd the line. JSON keeps them whole. */
export function briefHashes(text: string): string {
  return text.replace(/hmac-sha256:([0-9a-f]{12})[0-9a-f]{52}/g, 'hmac-sha256:$1…');
}

/** A paused call's answer (a store's calls only): `answer` in JSON, ` (answered: …)` in text. */
const answerField = (c: RecordedCall) => (c.answer === undefined ? {} : { answer: c.answer });
const answered = (c: RecordedCall) => (c.answer === undefined ? '' : ` (answered: ${c.answer})`);

/** `unit`: what a call's number is (`line` of a calls file, default; `entry`: its seq in a store's decision log). */
export function formatReplay(r: ReplayResult, format: ReportFormat, labels: { candidate: string; calls: string; unit?: 'line' | 'entry' }): string {
  const unit = labels.unit ?? 'line';
  if (format === 'json') {
    const body = {
      candidate: { label: labels.candidate, hash: r.candidate.hash },
      calls: labels.calls,
      summary: { replayed: r.replayed, unchanged: r.unchanged, ...r.summary },
      changes: r.changes.map((g) => ({
        action: g.action,
        before: g.before,
        after: g.after,
        reason: g.reason,
        looser: g.looser,
        count: g.count,
        example: { line: g.example.call.line, callId: g.example.call.callId, arguments: g.example.call.argsText, ...answerField(g.example.call) },
      })),
      ...(r.calls
        ? {
            calls: r.calls.map((c) => ({
              [unit]: c.call.line,
              callId: c.call.callId,
              action: c.call.action,
              arguments: c.call.argsText,
              before: c.before,
              after: c.after.decision,
              reason: c.after.reason,
              looser: c.looser,
            })),
          }
        : {}),
      undecidable: r.undecidable.map((u) => ({
        action: u.action,
        hashedArgs: u.args,
        count: u.count,
        example: { line: u.example.line, callId: u.example.callId },
      })),
    };
    return `${JSON.stringify(jsonSafe(body), null, 2)}\n`;
  }
  if (format === 'markdown') {
    const out = [`### Policy replay: \`${labels.candidate}\` on ${cell(labels.calls, true)}`, '', `**${summary(r)}**`, ''];
    if (r.changes.length > 0) {
      out.push('| action | change | rule | calls | example |', '| --- | --- | --- | --- | --- |');
      for (const g of r.changes)
        out.push(
          `| \`${g.action}\` | ${g.looser ? '⚠️ ' : ''}${transition(g.before, g.after)} | ${cell(g.reason)} | ${g.count} | ${cell(briefHashes(g.example.call.argsText), true)}${answered(g.example.call)} |`,
        );
      out.push('');
    }
    for (const u of r.undecidable)
      out.push(
        `- \`${u.action}\`: ${u.count} call${u.count === 1 ? '' : 's'} undecidable: the candidate reads ${u.args.map((a) => `\`${a}\``).join(', ')}, recorded only as a hash`,
      );
    if (r.calls && r.calls.length > 0) {
      out.push('', `Every changed call (${r.calls.length}):`, '', `| ${unit} | action | change | rule | arguments |`, '| --- | --- | --- | --- | --- |');
      for (const c of r.calls)
        out.push(
          `| ${c.call.line} | \`${c.call.action}\` | ${c.looser ? '⚠️ ' : ''}${transition(c.before, c.after.decision)} | ${cell(c.after.reason)} | ${cell(briefHashes(c.call.argsText), true)} |`,
        );
    }
    return `${out.join('\n')}\n`;
  }
  const out = [`replay: ${labels.candidate} (${r.candidate.hash.slice(0, 19)}) on ${labels.calls}`];
  for (const g of r.changes)
    out.push(
      `  ${g.action}: ${transition(g.before, g.after)}${g.looser ? ' (looser)' : ''} by ${g.reason}: ${g.count} call${g.count === 1 ? '' : 's'}, e.g. ${unit} ${g.example.call.line}: ${briefHashes(g.example.call.argsText)}${answered(g.example.call)}`,
    );
  for (const u of r.undecidable)
    out.push(`  ${u.action}: ${u.count} undecidable (the candidate reads ${u.args.join(', ')}, recorded only as a hash), e.g. ${unit} ${u.example.line}`);
  if (r.calls) {
    out.push(`every changed call (${r.calls.length}):`);
    for (const c of r.calls)
      out.push(
        `  ${unit} ${c.call.line}: ${c.call.action} ${transition(c.before, c.after.decision)}${c.looser ? ' (looser)' : ''} by ${c.after.reason}: ${briefHashes(c.call.argsText)}${answered(c.call)}`,
      );
  }
  out.push(summary(r));
  return `${out.join('\n')}\n`;
}
