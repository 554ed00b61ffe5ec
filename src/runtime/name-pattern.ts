/**
 * The names a manifest entry gives the tools made where their name is computed (issue 40, item 5:
 * `tool: { at: src/flows.ts, names: "flow_*" }`): `*` stands for any run of characters (none
 * too), every other character for itself. Matched against the SDK's sanitized name (what the
 * model calls), so a pattern is written in that alphabet: letters, digits and `_`. No imports: the
 * manifest loader and the runtime share it.
 */
export const NAME_PATTERN_CHARS = /^[A-Za-z0-9_*]+$/;

/** Whether `name` (sanitized) is one of the names `pattern` stands for. Linear in the two lengths. */
export function matchesNamePattern(pattern: string, name: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === name;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  // the middle parts, each at its first place after the previous one (leftmost is never worse)
  let at = first.length;
  const end = name.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i]!;
    const found = name.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
