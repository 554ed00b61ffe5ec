import { html } from 'hono/html';
import type { Halt } from '../runtime/types.js';
import { type Html, iso, layout, stepUpField, t, type Viewer } from './pages.js';

/**
 * The inbox's halts: what is halted (each with its lift form) and a form to halt every call, one run,
 * one principal or one action. Each form asks for the operator's token again (the step-up), as answers do.
 */
export function haltsPage(viewer: Viewer, halts: Halt[], message?: { kind: 'ok' | 'err'; text: string }): Html {
  return layout(
    'Halts',
    viewer,
    html`<h1>Halts <span class="meta">(${halts.length} in force)</span></h1>
${message ? html`<p class="msg ${message.kind}" role="status">${message.text}</p>` : ''}
<p class="meta">A halt refuses the calls it matches from the next call on, in every process of the store: a soft one tells the model <code>halted</code> and the run goes on; a hard one ends the run. Setting and lifting are recorded under your name.</p>
${halts.map(
  (
    h,
  ) => html`<article class="card" data-testid="halt"><h2>${h.target === 'all' ? 'Every call' : html`${h.target} <code>${t(h.value)}</code>`} · ${h.hard ? 'hard' : 'soft'}</h2>
<div class="meta">${t(h.reason)} · by <b>${t(h.by)}</b> · since ${iso(h.at)} · <code>${t(h.id)}</code></div>
<form method="post" action="/halts/lift" class="answer">
<input type="hidden" name="csrf" value="${viewer.csrf}"><input type="hidden" name="id" value="${h.id}">
<label>Why lift it (optional) <input type="text" name="reason" maxlength="2000"></label>
${stepUpField(viewer)}
<button type="submit">Lift this halt</button>
</form></article>`,
)}
<h2>Halt</h2>
<form method="post" action="/halts" class="card answer" data-testid="halt-form">
<input type="hidden" name="csrf" value="${viewer.csrf}">
<label>What <select name="target"><option value="action">one action</option><option value="principal">one principal</option><option value="run">one run</option><option value="all">every call</option></select></label>
<label>Which (the action id, the principal, the run id; empty for every call) <input type="text" name="value" maxlength="500"></label>
<label>Why (the model reads it) <input type="text" name="reason" maxlength="2000" required></label>
<label><input type="checkbox" name="hard" value="true"> Hard: end the run of a halted call</label>
${stepUpField(viewer)}
<button type="submit" class="reject">Halt</button>
</form>`,
  );
}
