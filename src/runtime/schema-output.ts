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

/** The schema's output when it is what the model sent (decided on); else a problem naming where it changed. */
export function unchangedBySchema(sent: unknown, received: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  const at = changedBySchema(sent, received);
  if (at === null) return { ok: true, value: received };
  return {
    ok: false,
    problem: `the tool's schema changes ${at} (a transform, default, coercion or trim), so the body would not get what the policy decided on`,
  };
}
