/**
 * The pure parts of CTRLRun's `authority:` grammar (its authority.py, SPEC-v0.3 §4.4, SPEC-v0.9
 * §2): grant patterns, expiry timestamps and budget windows. No I/O; the loader and the runtime
 * both use it.
 */

/**
 * Why `pattern` is not a CTRLRun pattern, or null. `separator` null is a subject pattern (one
 * segment, no `**`); `.` an action pattern; `:` a resource or task pattern. A segment is a literal
 * or a literal followed by one trailing `*`; a final `**` needs literal segments before it.
 */
export function patternProblem(pattern: string, separator: '.' | ':' | null): string | null {
  if (pattern === '') return 'is empty';
  const segments = separator === null ? [pattern] : pattern.split(separator);
  const last = segments.length - 1;
  for (const [index, segment] of segments.entries()) {
    if (segment === '') return `has an empty segment (segments are joined by \`${separator}\`)`;
    if (/[?[\]]/.test(segment)) return 'is not a pattern: there is no `?` and there are no character classes';
    if (segment === '**') {
      if (separator === null) return 'may not carry a deep wildcard: a subject has one segment, so write `*`';
      if (index !== last) return 'may use `**` only as its last segment';
      if (segments.slice(0, index).some((s) => s.includes('*'))) return 'puts a wildcard before a `**`; every segment before it must be a literal';
      continue;
    }
    const stars = segment.split('*').length - 1;
    if (stars > 1 || (stars === 1 && !segment.endsWith('*')))
      return `has a segment \`${segment}\` that is neither a literal nor a literal followed by one trailing \`*\``;
  }
  return null;
}

export { patternMatches } from '../runtime/authority.js';

const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?[ \t]*(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * An expiry as CTRLRun reads it (`datetime.fromisoformat`, or PyYAML's timestamp) with a required
 * offset: the instant in epoch ms and the text Python's `isoformat()` gives it (offset kept as
 * written, `Z` as `+00:00`), which is what CTRLRun's policy hash renders. Undefined: refused.
 */
export function parseExpiry(text: string): { iso: string; ms: number } | undefined {
  const m = ISO_TIMESTAMP.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '00', frac, zone] = m as unknown as string[];
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const micros = frac === undefined ? 0 : Number(frac.padEnd(6, '0'));
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    const digits = zone!.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(local);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
  const ms = local - offsetMinutes * 60_000 + Math.floor(micros / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  const abs = Math.abs(offsetMinutes);
  const offset = `${offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
  const iso = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}${micros ? `.${String(micros).padStart(6, '0')}` : ''}${offset}`;
  return { iso, ms };
}

const DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/** CTRLRun's duration subset (`PT<n>H`, `PT<n>M`, `PT<n>S`, `P<n>D`, combined), in seconds; undefined if refused. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (!m) return undefined;
  const [, d, h, mi, s] = m;
  const seconds = Number(d ?? 0) * 86_400 + Number(h ?? 0) * 3_600 + Number(mi ?? 0) * 60 + Number(s ?? 0);
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}
