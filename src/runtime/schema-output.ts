/**
 * Whether a tool schema's output (what the body receives) is the model's own arguments. The
 * policy decides, keys the effect and binds the approval on the model's arguments, so a schema
 * that changes them (`.trim()`, `.toLowerCase()`, `.default()`, `.transform()`, coercion,
 * `z.preprocess`) would let `"Mallory "` past a deny on `mallory`, or `"ACME"` past the effect
 * key of `"acme"`. Keys the schema dropped (unknown keys zod strips) are fine: the body never
 * sees them. Returns the path of the first changed value, or null when the body gets the same.
 */
export function changedBySchema(sent: unknown, received: unknown, path = '$', depth = 0): string | null {
  if (depth > 512) return path;
  if (Array.isArray(received)) {
    if (!Array.isArray(sent) || sent.length !== received.length) return path;
    for (let i = 0; i < received.length; i++) {
      const at = changedBySchema(sent[i], received[i], `${path}[${i}]`, depth + 1);
      if (at !== null) return at;
    }
    return null;
  }
  if (received !== null && typeof received === 'object') {
    const proto = Object.getPrototypeOf(received) as unknown;
    if (proto !== Object.prototype && proto !== null) return path; // a Date, a Map…: not JSON the model sent
    if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return path;
    for (const key of Object.keys(received)) {
      if (!Object.hasOwn(sent, key)) return `${path}.${key}`;
      const at = changedBySchema((sent as Record<string, unknown>)[key], (received as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
      if (at !== null) return at;
    }
    return null;
  }
  return sent === received ? null : path;
}

/** The schema's output when it is what the model sent (decided on); else a problem naming where it changed. */
export function unchangedBySchema(sent: unknown, received: unknown): { ok: true; value: unknown } | { ok: false; problem: string } {
  const at = changedBySchema(sent, received);
  if (at === null) return { ok: true, value: received };
  return { ok: false, problem: `the tool's schema changes ${at} (a transform, default, coercion or trim), so the body would not get what the policy decided on` };
}
