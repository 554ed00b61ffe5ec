/**
 * Whether a tool schema's output (what the body receives) is the model's own arguments. The
 * policy decides, keys the effect and binds the approval on the model's arguments, so a schema
 * that changes them (`.trim()`, `.toLowerCase()`, `.default()`, `.transform()`, coercion,
 * `z.preprocess`) would let `"Mallory "` past a deny on `mallory`, or `"ACME"` past the effect
 * key of `"acme"`. Keys the schema dropped (unknown keys zod strips) are fine: the body never
 * sees them. Returns the path of the first changed value, or null when the body gets the same.
 */
export function changedBySchema(sent: unknown, received: unknown, path = '$', depth = 0): string | null {
  const at = changedBelow(sent, received, depth);
  return at === null ? null : path + at;
}

/**
 * `changedBySchema` below one value: the rest of the path to the first change ('' for the value
 * itself), or null. The path is built only on the way back from a change, never for the values
 * that match (the common case, checked on every call).
 */
function changedBelow(sent: unknown, received: unknown, depth: number): string | null {
  if (depth > 512) return '';
  if (Array.isArray(received)) {
    if (!Array.isArray(sent) || sent.length !== received.length) return '';
    for (let i = 0; i < received.length; i++) {
      const at = changedBelow(sent[i], received[i], depth + 1);
      if (at !== null) return `[${i}]${at}`;
    }
    return null;
  }
  if (received !== null && typeof received === 'object') {
    const proto = Object.getPrototypeOf(received) as unknown;
    if (proto !== Object.prototype && proto !== null) return ''; // a Date, a Map…: not JSON the model sent
    if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return '';
    for (const key of Object.keys(received)) {
      if (!Object.hasOwn(sent, key)) return `.${key}`;
      const at = changedBelow((sent as Record<string, unknown>)[key], (received as Record<string, unknown>)[key], depth + 1);
      if (at !== null) return `.${key}${at}`;
    }
    return null;
  }
  return sent === received ? null : '';
}

/**
 * The schema's output as the call's arguments (issue 40): the body gets it, so the policy decides
 * on it, the approval binds it and the approver reads it (a default filled in, a value trimmed, a
 * coercion: decided as the body will see them). Refused only when a part the schema changed is not
 * a JSON value (a Date, a Map, `undefined`, a function…): it could be neither decided on, nor
 * hashed, nor shown. Returns the output, or a problem naming where.
 */
export function outputAsArguments(sent: unknown, received: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  const at = nonJsonChange(sent, received, '$', 0);
  if (at === null) return { ok: true, value: received };
  return {
    ok: false,
    problem: `the tool's schema gives the body ${at.path} as ${at.what}, not a JSON value, so the policy could not decide on what the body would get`,
  };
}

/** The first part the schema changed whose output is not JSON (path and what it is), or null. */
function nonJsonChange(sent: unknown, received: unknown, path: string, depth: number): { path: string; what: string } | null {
  if (Object.is(sent, received) || depth > 512) return null;
  if (Array.isArray(received)) {
    const before = Array.isArray(sent) ? sent : [];
    for (let i = 0; i < received.length; i++) {
      const at = nonJsonChange(before[i], received[i], `${path}[${i}]`, depth + 1);
      if (at !== null) return at;
    }
    return null;
  }
  if (received !== null && typeof received === 'object') {
    const proto = Object.getPrototypeOf(received) as unknown;
    if (proto !== Object.prototype && proto !== null) return { path, what: `a ${(received as object).constructor?.name ?? 'non-plain object'}` };
    const before = sent !== null && typeof sent === 'object' && !Array.isArray(sent) ? (sent as Record<string, unknown>) : {};
    for (const key in received) {
      if (!Object.hasOwn(received, key)) continue; // (own keys, no key list copied)
      const member = (received as Record<string, unknown>)[key];
      // a member the schema left as it was: no path written for it (most are)
      if (Object.is(before[key], member)) continue;
      const at = nonJsonChange(before[key], member, `${path}.${key}`, depth + 1);
      if (at !== null) return at;
    }
    return null;
  }
  if (received === null || typeof received === 'string' || typeof received === 'boolean') return null;
  if (typeof received === 'number') return Number.isFinite(received) ? null : { path, what: String(received) };
  return { path, what: received === undefined ? 'undefined' : `a ${typeof received}` };
}
