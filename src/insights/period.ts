import { DEFAULT_FATIGUE, type FatigueRules, parseDuration } from './fatigue.js';

/** What `stats` and the Insights page are asked: a period and the fatigue rules, as text (flags, a query string). */
export interface PeriodAsk {
  /** `7d`, `24h`: the period that ends now (default `7d`). */
  period?: string | undefined;
  /** ISO 8601; overrides `period`'s start. */
  since?: string | undefined;
  /** ISO 8601; default now. */
  until?: string | undefined;
  fatigueAnswers?: string | number | undefined;
  fatigueWindow?: string | undefined;
  fatigueMinTime?: string | undefined;
}

export type Asked<T> = { ok: true; value: T } | { ok: false; message: string };

/** The period [since, until) asked for, or why it is not one. Pure (`now` given). */
export function periodOf(ask: PeriodAsk, now: number): Asked<{ since: number; until: number }> {
  const until = ask.until === undefined || ask.until === '' ? now : Date.parse(ask.until);
  if (Number.isNaN(until)) return { ok: false, message: `until: not an ISO 8601 time: ${ask.until}` };
  let since: number;
  if (ask.since !== undefined && ask.since !== '') {
    since = Date.parse(ask.since);
    if (Number.isNaN(since)) return { ok: false, message: `since: not an ISO 8601 time: ${ask.since}` };
  } else {
    const span = parseDuration(ask.period && ask.period !== '' ? ask.period : '7d');
    if (span === undefined || span <= 0) return { ok: false, message: `period: not a duration (7d, 24h, 90m): ${ask.period}` };
    since = until - span;
  }
  if (since >= until) return { ok: false, message: 'the period is empty: since must come before until' };
  return { ok: true, value: { since, until } };
}

/** The fatigue rules asked for (each part defaulted), or why one is not a rule; `given` says whether any part was asked. */
export function fatigueOf(ask: PeriodAsk): Asked<{ rules: FatigueRules; given: boolean }> {
  const rules = { ...DEFAULT_FATIGUE };
  const given = ask.fatigueAnswers !== undefined || ask.fatigueWindow !== undefined || ask.fatigueMinTime !== undefined;
  if (ask.fatigueAnswers !== undefined) {
    const n = Number(ask.fatigueAnswers);
    if (!Number.isInteger(n) || n < 1) return { ok: false, message: `fatigue-answers: a positive whole number of answers, got ${ask.fatigueAnswers}` };
    rules.maxAnswers = n;
  }
  for (const [key, text] of [
    ['windowMs', ask.fatigueWindow],
    ['minDecideMs', ask.fatigueMinTime],
  ] as const) {
    if (text === undefined) continue;
    const ms = parseDuration(text);
    if (ms === undefined || (key === 'windowMs' && ms <= 0))
      return { ok: false, message: `${key === 'windowMs' ? 'fatigue-window' : 'fatigue-min-time'}: not a duration (90s, 15m, 2h): ${text}` };
    rules[key] = ms;
  }
  return { ok: true, value: { rules, given } };
}
