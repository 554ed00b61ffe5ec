import { html } from 'hono/html';
import type { Explanation } from '../policy/evaluate.js';
import type { VerifyResult } from '../runtime/receipts.js';
import { argsMatchHash } from '../runtime/args-binding.js';
import { changesText, editOf } from '../runtime/edits.js';
import type { ApprovalGrant, ApprovalRequest, EffectRecord, Receipt } from '../runtime/types.js';
import { editableProperties, editFields } from './answer-form.js';
import { MARK_NOTE, terminalSafe } from '../terminal-text.js';
import { type ArgRow, approvedCount, type Page } from './view.js';

/**
 * The inbox's pages: plain server-rendered HTML, no script. Every value is interpolated through
 * hono's `html` tag, which escapes it: arguments, reasons, effect keys and names are the model's
 * or a person's text and never markup.
 */
export type Html = ReturnType<typeof html>;

export interface Viewer {
  name: string;
  roles: string[];
  csrf: string;
  /** Signed in with a session: every state-changing form asks for the operator's token again. */
  stepUp: boolean;
  /** The operator's tenant (absent: every tenant). */
  tenant?: string;
}

/** The step-up field of a state-changing form (a session only; a trusted proxy asks on every request itself). */
export const stepUpField = (viewer: Viewer): Html | string =>
  viewer.stepUp
    ? html`<label>Your operator token (asked for every answer: the session alone never answers) <input type="password" name="token" autocomplete="current-password" required></label>`
    : '';

/** A stored time as ISO text; one out of Date's range (a store written by hand) is shown as its number, never a 500. */
export const iso = (ms: number | undefined): string => {
  if (ms === undefined) return '-';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? `(invalid time ${String(ms)})` : d.toISOString().replace('.000Z', 'Z');
};

/**
 * Stored text (the model's arguments, ids, names, reasons, keys) as the page shows it: HTML-escaped
 * by the tag, and, when it holds a control, bidi or invisible character (U+202E would show
 * `acct-0123-4567` for another account), escaped as the CLI prints it and marked.
 */
export const t = (text: string | null | undefined): Html | string => {
  if (text === null || text === undefined) return '';
  const safe = terminalSafe(text);
  return safe.marked ? html`<mark class="escaped" data-testid="escaped" title="${MARK_NOTE}">${safe.text}</mark>` : text;
};
const requestHref = (id: string): string => `/requests/${encodeURIComponent(id)}`;

export const CSS = `
*{box-sizing:border-box}body{font:16px/1.45 system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
header{background:#1b1f24;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.8rem;align-items:center}
header a{color:#fff}header .who{margin-left:auto;font-size:.9rem}header form{display:inline}
main{max-width:60rem;margin:0 auto;padding:1rem}
.card{background:#fff;border:1px solid #d8dde3;border-radius:.5rem;padding:.8rem 1rem;margin:.6rem 0;overflow-wrap:anywhere}
.card h2{font-size:1.05rem;margin:0 0 .3rem}.meta{color:#57606a;font-size:.9rem}
table{border-collapse:collapse;width:100%}th{white-space:nowrap}td,th{border-bottom:1px solid #e3e6ea;padding:.3rem .4rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
code,pre{font:14px/1.4 ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere}
.changed,.added{background:#fff3c4}.removed{background:#ffe1e1}
.msg{padding:.6rem 1rem;border-radius:.4rem;margin:.6rem 0}.ok{background:#dff5e1}.err{background:#ffe1e1}
.held{color:#1a7f37}.not{color:#cf222e}
form.answer{display:grid;gap:.5rem}fieldset{border:1px solid #d8dde3;border-radius:.4rem;display:grid;gap:.4rem}select{font:inherit;padding:.3rem}textarea,input[type=text],input[type=password]{width:100%;font:inherit;padding:.4rem}
button{font:inherit;padding:.45rem .9rem;border-radius:.35rem;border:1px solid #8c959f;background:#fff;cursor:pointer}
button.approve{background:#1a7f37;color:#fff;border-color:#1a7f37}button.reject{background:#cf222e;color:#fff;border-color:#cf222e}
nav.pages{display:flex;gap:1rem;margin:1rem 0}
mark.escaped{background:#ffd8a8;outline:1px solid #bc4c00;unicode-bidi:isolate}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.scroll{overflow-x:auto}.risk{border-left:4px solid #cf222e}form.period{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
`;

export function layout(title: string, viewer: Viewer | undefined, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ctrlrun-gen</title>
<link rel="stylesheet" href="/static/app.css">
</head>
<body>
<header>
<strong>ctrlrun-gen</strong>
<a href="/">Inbox</a><a href="/history">History</a><a href="/grants">Grants</a><a href="/effects">Effects</a><a href="/halts">Halts</a><a href="/receipts">Receipts</a><a href="/insights">Insights</a>
${
  viewer
    ? html`<span class="who">Signed in as <b data-testid="viewer">${viewer.name}</b>${viewer.roles.length ? html` (${viewer.roles.join(', ')})` : ''}${viewer.tenant ? html` · tenant <b>${viewer.tenant}</b>` : ''}
<form method="post" action="/logout"><input type="hidden" name="csrf" value="${viewer.csrf}"><button type="submit">Sign out</button></form></span>`
    : ''
}
</header>
<main>
${body}
</main>
</body>
</html>`;
}

export function loginPage(csrf: string, error?: string): Html {
  return layout(
    'Sign in',
    undefined,
    html`<h1>Sign in</h1>
${error ? html`<p class="msg err" role="alert">${error}</p>` : ''}
<form method="post" action="/login" class="card answer">
<input type="hidden" name="csrf" value="${csrf}">
<label>Operator token <input type="password" name="token" autocomplete="off" required></label>
<button type="submit">Sign in</button>
<p class="meta">A token is made by <code>ctrlrun-gen operators add NAME</code>.</p>
</form>`,
  );
}

function summary(r: ApprovalRequest): Html {
  return html`<article class="card" data-testid="request">
<h2><a href="${requestHref(r.callId)}">${t(r.action)}</a></h2>
<div class="meta">requested by <b>${t(r.principal)}</b> · ${approvedCount(r)}/${r.approvalsRequired} approvals · ${r.state} · ${iso(r.createdAt)}</div>
<code>${t(r.args.length > 160 ? `${r.args.slice(0, 159)}…` : r.args)}</code>
${argsMatchHash(r) ? '' : html`<p class="msg err" data-testid="args-mismatch">These arguments are not the ones this request's argsHash binds: what is shown is not what would run. Nobody may answer it.</p>`}
</article>`;
}

function pager(base: string, page: Page<unknown>): Html {
  if (page.pages <= 1) return html``;
  return html`<nav class="pages" aria-label="pages">
${page.page > 1 ? html`<a href="${base}?page=${page.page - 1}" rel="prev">Newer</a>` : ''}
<span>page ${page.page} of ${page.pages}</span>
${page.page < page.pages ? html`<a href="${base}?page=${page.page + 1}" rel="next">Older</a>` : ''}
</nav>`;
}

export function inboxPage(viewer: Viewer, page: Page<ApprovalRequest>): Html {
  return layout(
    'Inbox',
    viewer,
    html`<h1>Waiting for a person <span class="meta">(${page.total})</span></h1>
${page.total === 0 ? html`<p class="card">Nothing is waiting. Paused calls appear here, newest first.</p>` : page.items.map(summary)}
${pager('/', page)}`,
  );
}

export function historyPage(viewer: Viewer, page: Page<ApprovalRequest>): Html {
  return layout(
    'History',
    viewer,
    html`<h1>Decided and executed <span class="meta">(${page.total})</span></h1>
${page.total === 0 ? html`<p class="card">No decided requests yet.</p>` : page.items.map(summary)}
${pager('/history', page)}`,
  );
}

export interface RequestView {
  request: ApprovalRequest;
  rows: ArgRow[];
  previous?: ApprovalRequest;
  explanation?: Explanation;
  /** The policy's action, as serve loaded it. */
  action?: { controls: Array<{ id: string; title?: string; approverRole?: string }>; approvalsRequired: number };
  policyMatches: boolean;
  expiry?: { until: number; expired: boolean };
  ttlMs: number;
  /** Why this viewer may not answer (missing roles), if so. */
  cannotAnswer?: string;
  /** serve's `--max-grant-hours` (0: the grant fields are not shown). */
  maxGrantHours: number;
  message?: { kind: 'ok' | 'err'; text: string };
}

export function requestPage(viewer: Viewer, v: RequestView): Html {
  const r = v.request;
  const e = v.explanation;
  return layout(
    r.action,
    viewer,
    html`<h1>${t(r.action)} <span class="meta">${r.state}</span></h1>
${v.message ? html`<p class="msg ${v.message.kind}" role="${v.message.kind === 'err' ? 'alert' : 'status'}" data-testid="message">${v.message.text}</p>` : ''}
<section class="card">
<table>
<tr><th>Requested by</th><td data-testid="requester">${t(r.principal)}</td></tr>
<tr><th>Call</th><td><code>${t(r.callId)}</code> (tool <code>${t(r.toolName)}</code>)</td></tr>
<tr><th>Created</th><td>${iso(r.createdAt)}</td></tr>
<tr><th>Approvals</th><td data-testid="approvals">${approvedCount(r)} of ${r.approvalsRequired}</td></tr>
<tr><th>Expiry</th><td>${
      v.expiry
        ? html`approval ${v.expiry.expired ? 'expired' : 'valid until'} ${iso(v.expiry.until)}`
        : r.state === 'pending'
          ? html`once approved, valid for ${Math.round(v.ttlMs / 60000)} min`
          : '-'
    }</td></tr>
<tr><th>Arguments hash</th><td><code>${t(r.argsHash)}</code></td></tr>
<tr><th>Policy hash</th><td><code>${r.policyHash}</code>${v.policyMatches ? '' : html` <b class="not">(not the policy serve loaded)</b>`}</td></tr>
</table>
</section>
<section class="card">
<h2>Arguments${v.previous ? html` <span class="meta">compared with the last approved call, <a href="${requestHref(v.previous.callId)}">${v.previous.callId}</a></span>` : ''}</h2>
<table data-testid="arguments">
<tr><th>argument</th><th>this call</th>${v.previous ? html`<th>last approved</th>` : ''}</tr>
${v.rows.map(
  (row) =>
    html`<tr class="${row.change}"><td><code>${t(row.key)}</code></td><td><code>${row.value === undefined ? '(absent)' : t(row.value)}</code></td>${
      v.previous ? html`<td><code>${row.before === undefined ? '(absent)' : t(row.before)}</code></td>` : ''
    }</tr>`,
)}
</table>
</section>
<section class="card" data-testid="explain">
<h2>Why a person is asked</h2>
${
  e
    ? html`<p>${e.reason.startsWith('rule[') ? html`${e.reason} matched: <b>${e.decision}</b>` : html`${e.reason}: <b>${e.decision}</b>`}</p>
<ul>${e.conditions.map((c) => html`<li class="${c.held ? 'held' : 'not'}">${c.held ? '✓' : '✗'} rule ${c.ruleIndex}: <code>${t(c.key)}: ${t(JSON.stringify(c.expected))}</code>, ${t(c.arg)} = <code>${c.actual === undefined ? '(missing)' : t(JSON.stringify(c.actual))}</code></li>`)}</ul>`
    : html`<p>The loaded policy does not know this action.</p>`
}
${
  v.action
    ? html`<p>Needs ${v.action.approvalsRequired} approver(s) other than the requester.${v.action.controls.length ? '' : ' No controls.'}</p>
<ul>${v.action.controls.map((c) => html`<li>control <b>${c.id}</b>${c.title ? html`: ${c.title}` : ''}${c.approverRole ? html` — approver role <code>${c.approverRole}</code>` : ''}</li>`)}</ul>`
    : ''
}
</section>
<section class="card">
<h2>Answers</h2>
${r.answers.length === 0 ? html`<p>None yet.</p>` : html`<ul data-testid="answers">${r.answers.map((a) => answerItem(r, a))}</ul>`}
${r.state !== 'pending' ? '' : v.cannotAnswer ? html`<p class="msg err">${v.cannotAnswer}</p>` : answerForm(viewer, r, v.maxGrantHours)}
</section>`,
  );
}

/** One answer as the page lists it: approved (with the changes it approved), rejected with its reason, or responded with the result. */
function answerItem(r: ApprovalRequest, a: ApprovalRequest['answers'][number]): Html {
  const verb =
    a.decision === 'respond' ? "responded in the tool's place" : a.decision === 'reject' ? 'rejected' : a.args ? 'approved with changes' : 'approved';
  return html`<li>${iso(a.at)} <b>${verb}</b> by <b>${t(a.approver)}</b>${a.args ? html` (<code>${t(changesText(r.args, a.args))}</code>)` : ''}${a.reason ? html`: ${t(a.reason)}` : ''}${
    a.result !== undefined ? html`<pre data-testid="response">${t(a.result)}</pre>` : ''
  }</li>`;
}

/**
 * The answer form: approve as proposed, approve with changes (fields from the tool's schema), and
 * optionally grant the same for a while; respond in the tool's place; reject with a reason. One form,
 * one step-up: the buttons say which answer it is.
 */
function answerForm(viewer: Viewer, r: ApprovalRequest, maxGrantHours: number): Html {
  const editable = editableProperties(r);
  const edit = editOf(r);
  const respondable = r.door?.kind !== 'hosted_mcp';
  return html`<form method="post" action="${requestHref(r.callId)}/answer" class="answer" data-testid="answer-form">
<input type="hidden" name="csrf" value="${viewer.csrf}">
${edit ? html`<p class="msg ok" data-testid="pending-edit">${t(edit.editedBy)} approved with changes: <code>${t(changesText(r.args, edit.args))}</code>. Every approver approves the same arguments: approve with these (below), or reject.</p>` : ''}
<fieldset data-testid="edit-form"><legend>Arguments to run</legend>
${
  editable.ok
    ? html`${editFields(r, editable.properties)}<p class="meta">Changed arguments are decided again by the policy (an edit the policy denies is refused), and the model is told what ran.</p>`
    : html`<p class="meta" data-testid="no-edits">No edits here: ${editable.why}.</p>`
}
</fieldset>
${
  maxGrantHours > 0 && r.approvalsRequired === 1
    ? html`<fieldset data-testid="grant-form"><legend>Grant the same for a while (optional)</legend>
<label>Hours (at most ${maxGrantHours}) <input type="text" inputmode="decimal" name="grant_hours" data-testid="grant-hours"></label>
<label>Bounds (CTRLRun <code>when</code> entries, optional) <input type="text" name="grant_bounds" placeholder='{"amount_lte": 300000}' data-testid="grant-bounds"></label>
<p class="meta">Later calls of ${t(r.action)} by ${t(r.principal)} that the policy decides by the same rule and within the bounds run without a pause until then, each with a receipt naming the grant; revoke it on the Grants page.</p>
</fieldset>`
    : ''
}
<label>Reason (required to reject) <textarea name="reason" rows="2" maxlength="2000"></textarea></label>
${respondable ? html`<label>Response in the tool's place (the tool does not run; the model reads this) <textarea name="result" rows="2" data-testid="respond-result"></textarea></label>` : ''}
${stepUpField(viewer)}
<div><button class="approve" type="submit" name="decision" value="approve">Approve as ${viewer.name}</button>
${editable.ok ? html`<button class="approve" type="submit" name="decision" value="approve_edited" data-testid="approve-edited">Approve with these arguments</button>` : ''}
${respondable ? html`<button type="submit" name="decision" value="respond" data-testid="respond">Respond instead</button>` : ''}
<button class="reject" type="submit" name="decision" value="reject">Reject</button></div>
</form>`;
}

export function grantsPage(viewer: Viewer, grants: ApprovalGrant[], now: number, message?: { kind: 'ok' | 'err'; text: string }): Html {
  const state = (g: ApprovalGrant) => (g.revokedAt !== undefined ? `revoked by ${g.revokedBy ?? '?'}` : g.expiresAt < now ? 'expired' : 'active');
  return layout(
    'Grants',
    viewer,
    html`<h1>Approval grants <span class="meta">(${grants.filter((g) => g.revokedAt === undefined && g.expiresAt >= now).length} active)</span></h1>
${message ? html`<p class="msg ${message.kind}" role="status" data-testid="message">${message.text}</p>` : ''}
<p class="meta">"The same for a while", given while answering: calls of the action by that principal, decided by the same rule and within the bounds, run without a pause until the grant ends or is revoked. Not the policy's <code>authority:</code> grants.</p>
<table data-testid="grants"><tr><th>grant</th><th>state</th><th>action</th><th>for</th><th>rule, bounds</th><th>granted by</th><th>until</th><th></th></tr>
${grants.map(
  (g) =>
    html`<tr><td><code>${t(g.id)}</code></td><td>${state(g)}</td><td>${t(g.action)}</td><td>${t(g.principal)}</td><td><code>${t(g.rule)} ${t(g.bounds)}</code></td><td>${t(g.grantedBy)}</td><td>${iso(g.expiresAt)}</td><td>${
      g.revokedAt === undefined && g.expiresAt >= now
        ? html`<form method="post" action="/grants/${encodeURIComponent(g.id)}/revoke"><input type="hidden" name="csrf" value="${viewer.csrf}">${stepUpField(viewer)}<button class="reject" type="submit">Revoke</button></form>`
        : ''
    }</td></tr>`,
)}
</table>`,
  );
}

export function effectsPage(viewer: Viewer, effects: EffectRecord[], now: number, message?: { kind: 'ok' | 'err'; text: string }): Html {
  const open = effects.filter((e) => e.state === 'ambiguous' || (e.state === 'in_flight' && now >= e.leaseUntil));
  return layout(
    'Effects',
    viewer,
    html`<h1>Effects nobody knows the outcome of <span class="meta">(${open.length})</span></h1>
${message ? html`<p class="msg ${message.kind}" role="status">${message.text}</p>` : ''}
<p class="meta">Find out in the remote system whether it happened, then say so. Committed: later calls are duplicates. Failed: the call may be tried again.</p>
${open.map(
  (e) => html`<article class="card" data-testid="effect"><h2><code>${t(e.key)}</code></h2>
<div class="meta">${t(e.action)} · ${e.state === 'ambiguous' ? 'ambiguous' : 'lease over'} · ${e.attempts} attempt(s) · ${iso(e.updatedAt)}</div>
<form method="post" action="/effects/resolve">
<input type="hidden" name="csrf" value="${viewer.csrf}"><input type="hidden" name="key" value="${e.key}">
${stepUpField(viewer)}
<button type="submit" name="state" value="committed">It happened (committed)</button>
<button type="submit" name="state" value="failed">It did not (failed)</button>
</form></article>`,
)}
<h2>All keys</h2>
<table><tr><th>key</th><th>state</th><th>action</th><th>attempts</th><th>updated</th></tr>
${effects.map((e) => html`<tr><td><code>${t(e.key)}</code></td><td>${e.state}${e.resolvedBy ? html` (by ${t(e.resolvedBy)})` : ''}</td><td>${t(e.action)}</td><td>${e.attempts}</td><td>${iso(e.updatedAt)}</td></tr>`)}
</table>`,
  );
}

export function receiptsPage(viewer: Viewer, receipts: Receipt[], total: number, verify: VerifyResult | undefined): Html {
  return layout(
    'Receipts',
    viewer,
    html`<h1>Receipts</h1>
${
  verify === undefined
    ? html`<p class="meta" data-testid="verify">Tenant ${viewer.tenant}'s receipts. The chain (every tenant's) is verified by the store's operators.</p>`
    : html`<p class="msg ${verify.ok ? 'ok' : 'err'}" data-testid="verify">${
        verify.ok
          ? html`Chain intact: ${verify.count} receipts verified${verify.prunedThrough ? html` (seq 1-${verify.prunedThrough} pruned, as a prune record says)` : ''}.`
          : html`Chain broken at seq ${verify.seq}: ${verify.break}.`
      }</p>`
}
<p class="meta">Newest ${receipts.length} of ${total}. Keep the newest hash elsewhere: deleting the newest receipts leaves no trace inside the store.</p>
<table data-testid="receipts"><tr><th>seq</th><th>action</th><th>result</th><th>principal</th><th>approvers</th><th>reason</th><th>at</th><th>hash</th></tr>
${receipts.map(
  (r) =>
    html`<tr><td>${r.seq}</td><td>${t(r.action)}</td><td>${t(r.result)}</td><td>${r.principal === null ? '-' : t(r.principal)}</td><td>${t(r.approvers.join(', '))}</td><td>${t(r.reason)}</td><td>${iso(r.at)}</td><td><code>${r.hash.slice(0, 12)}…</code></td></tr>`,
)}
</table>`,
  );
}
