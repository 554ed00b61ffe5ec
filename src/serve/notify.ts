import type { ApprovalRequest, Store } from '../runtime/types.js';

/**
 * `--notify-webhook URL`: one Slack-compatible JSON post (`text` plus `blocks`) per new pending
 * request, with a link to its page. Fire and forget: a failed post is retried with backoff and
 * logged, never awaited by anything on the agent's path.
 */
export interface NotifierOptions {
  url: string;
  /** Where the inbox is reachable, for the link (e.g. http://127.0.0.1:8787). */
  publicUrl: string;
  log: (line: string) => void;
  fetch?: typeof fetch;
  /** Delays before each retry (ms); the number of retries is its length. */
  retryDelays?: readonly number[];
  timeoutMs?: number;
}

export function slackMessage(r: ApprovalRequest, publicUrl: string): Record<string, unknown> {
  const link = `${publicUrl.replace(/\/$/, '')}/requests/${encodeURIComponent(r.callId)}`;
  const args = r.args.length > 300 ? `${r.args.slice(0, 299)}…` : r.args;
  // Slack mrkdwn: &, < and > are escaped so model text cannot forge a link or a mention.
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const text = `Approval needed: ${r.action} requested by ${r.principal} (${r.approvalsRequired} approver${r.approvalsRequired === 1 ? '' : 's'}): ${link}`;
  return {
    text: esc(text),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*Approval needed:* \`${esc(r.action)}\` requested by *${esc(r.principal)}*` } },
      { type: 'section', text: { type: 'mrkdwn', text: `\`\`\`${esc(args)}\`\`\`` } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `<${link}|Open the request> (${r.approvalsRequired} approver${r.approvalsRequired === 1 ? '' : 's'} needed)` },
      },
    ],
    ctrlrun: { callId: r.callId, action: r.action, principal: r.principal, url: link },
  };
}

export class Notifier {
  private readonly seen = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly o: NotifierOptions) {}

  /** Queues a post for `r` unless one was queued already; returns at once. */
  notify(r: ApprovalRequest): void {
    if (this.seen.has(r.callId)) return;
    this.seen.add(r.callId);
    const p = this.post(r).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** Marks requests as already known (those pending when serve started are not announced again). */
  markSeen(ids: Iterable<string>): void {
    for (const id of ids) this.seen.add(id);
  }

  /** Waits for posts under way (for shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private async post(r: ApprovalRequest): Promise<void> {
    const delays = this.o.retryDelays ?? [500, 2000, 8000];
    const doFetch = this.o.fetch ?? fetch;
    const body = JSON.stringify(slackMessage(r, this.o.publicUrl));
    for (let attempt = 0; ; attempt++) {
      let problem: string;
      try {
        const res = await doFetch(this.o.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
          signal: AbortSignal.timeout(this.o.timeoutMs ?? 5000),
        });
        if (res.ok) return;
        problem = `HTTP ${res.status}`;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      if (attempt >= delays.length) {
        this.o.log(`serve: webhook for ${r.callId} failed after ${attempt + 1} attempts (${problem}); giving up`);
        return;
      }
      this.o.log(`serve: webhook for ${r.callId} failed (${problem}); retrying in ${delays[attempt]} ms`);
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    }
  }
}

/**
 * Agents that write the store directly (SQLite, Postgres) do not pass through serve: a poll finds
 * their new pending requests. Returns a stop function.
 */
export function pollPending(store: Store, notifier: Notifier, everyMs: number, log: (line: string) => void): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    try {
      for (const r of await store.listRequests({ state: 'pending' })) notifier.notify(r);
    } catch (error) {
      log(`serve: could not read pending requests for the webhook (${error instanceof Error ? error.message : String(error)})`);
    }
    if (!stopped) timer = setTimeout(tick, everyMs);
  };
  timer = setTimeout(tick, everyMs);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
