import type { Context, Hono, MiddlewareHandler } from 'hono';
import { html } from 'hono/html';
import { DEFAULT_FATIGUE } from '../insights/fatigue.js';
import { fatigueOf, type PeriodAsk, periodOf } from '../insights/period.js';
import { type ActionInsight, type Insights, insightsOf } from '../insights/stats.js';
import { durationText, findingText, rateText } from '../insights/text.js';
import { type Env, type ServeAppOptions, storeFor } from './app-options.js';
import { type Html, iso, layout, t, type Viewer } from './pages.js';

/**
 * The Insights page: for a period (`?period=7d`, or `?since=&until=`), per action and per approver,
 * requests, approval rate, median and p90 time to decide, expired, edits and grants used, the
 * busiest rules, and approval fatigue shown as a risk. Over the viewer's own tenant's records.
 */
export function mountInsights(app: Hono<Env>, o: ServeAppOptions, guard: MiddlewareHandler<Env>, viewer: (c: Context<Env>) => Viewer): void {
  app.get('/insights', guard, async (c) => {
    const ask: PeriodAsk = { period: c.req.query('period'), since: c.req.query('since'), until: c.req.query('until') };
    const period = periodOf(ask, o.clock());
    const rules = o.fatigue?.rules ?? fatigueOrDefault(ask);
    if (!period.ok) return c.html(insightsPage(viewer(c), undefined, ask, period.message), 400);
    const store = storeFor(o, c.get('who'));
    const [requests, receipts] = await Promise.all([store.listRequests(), store.listReceipts()]);
    const insights = insightsOf(requests, receipts, { ...period.value, approvalTtlMs: o.approvalTtlMs, fatigue: rules });
    return c.html(insightsPage(viewer(c), insights, ask));
  });
}

function fatigueOrDefault(ask: PeriodAsk) {
  const asked = fatigueOf(ask);
  return asked.ok ? asked.value.rules : DEFAULT_FATIGUE;
}

const num = (n: number | string) => html`<td class="num">${n}</td>`;

function actionRow(a: ActionInsight): Html {
  return html`<tr data-testid="action-row"><th scope="row">${t(a.action)}</th>${num(a.requests)}${num(a.approved)}${num(a.rejected)}${num(rateText(a))}${num(durationText(a.medianMs))}${num(durationText(a.p90Ms))}${num(a.pending)}${num(a.expired)}${num(a.edits)}${num(a.grantsUsed)}</tr>`;
}

export function insightsPage(viewer: Viewer, s: Insights | undefined, ask: PeriodAsk, error?: string): Html {
  const form = html`<form method="get" action="/insights" class="card period">
<label>Period <input type="text" name="period" value="${ask.period ?? '7d'}" size="6"></label>
<label>or since <input type="text" name="since" value="${ask.since ?? ''}" placeholder="2026-11-01T00:00:00Z"></label>
<label>until <input type="text" name="until" value="${ask.until ?? ''}" placeholder="now"></label>
<button type="submit">Show</button></form>`;
  if (s === undefined) return layout('Insights', viewer, html`<h1>Insights</h1>${form}<p class="msg err" role="alert">${error ?? ''}</p>`);
  return layout(
    'Insights',
    viewer,
    html`<h1>Insights <span class="meta">${iso(s.since)} to ${iso(s.until)}</span></h1>
${form}
<section class="card ${s.fatigue.length ? 'risk' : ''}" data-testid="fatigue">
<h2>Approval fatigue ${s.fatigue.length ? html`<span class="not">(${s.fatigue.length})</span>` : ''}</h2>
<p class="meta">An approver answering more than ${s.fatigueRules.maxAnswers} requests within ${durationText(s.fatigueRules.windowMs)}, or approving less than ${durationText(s.fatigueRules.minDecideMs)} after the pause: rubber-stamping is a risk. ${s.fatigueRecorded} recorded as receipts in this period.</p>
${s.fatigue.length === 0 ? html`<p>None.</p>` : html`<ul>${s.fatigue.map((f) => html`<li data-testid="finding">${t(findingText(f, s.fatigueRules))}</li>`)}</ul>`}
</section>
<section class="card"><h2>By action</h2>
<div class="scroll"><table><thead><tr><th>Action</th><th>Requests</th><th>Approved</th><th>Rejected</th><th>Approval rate</th><th>Median to decide</th><th>p90</th><th>Pending</th><th>Expired</th><th>Edits</th><th>Grants used</th></tr></thead>
<tbody>${actionRow(s.totals)}${s.actions.map(actionRow)}</tbody></table></div></section>
<section class="card"><h2>By approver</h2>
${
  s.approvers.length === 0
    ? html`<p>No answers in this period.</p>`
    : html`<table><thead><tr><th>Approver</th><th>Answers</th><th>Approved</th><th>Rejected</th><th>Approval rate</th><th>Median to decide</th><th>p90</th><th>Fatigue</th></tr></thead>
<tbody>${s.approvers.map(
        (a) =>
          html`<tr data-testid="approver-row"><th scope="row">${t(a.approver)}</th>${num(a.answers)}${num(a.approved)}${num(a.rejected)}${num(rateText(a))}${num(durationText(a.medianMs))}${num(durationText(a.p90Ms))}${num(a.fatigue)}</tr>`,
      )}</tbody></table>`
}</section>
<section class="card"><h2>Busiest rules</h2>
${
  s.rules.length === 0
    ? html`<p>No decisions in this period.</p>`
    : html`<table><thead><tr><th>Action</th><th>Rule</th><th>Calls</th></tr></thead><tbody>${s.rules.map((r) => html`<tr><td>${t(r.action)}</td><td><code>${t(r.reason)}</code></td>${num(r.calls)}</tr>`)}</tbody></table>`
}</section>`,
  );
}
