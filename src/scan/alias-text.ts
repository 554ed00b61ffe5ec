// The writer search's aliases read backwards from each door name (issue 40 item 4): the forward
// pattern of imported-door-writes.ts `renamedExports` reads a declaration's condition and value
// only so far ahead (a bound keeps it from scanning a file once per declaration); past it an alias
// was not added and its writer, naming no SDK, stayed unread. From a name, the text it may be the
// value of is found by walking back, once per name met, so no length bounds it.

/** A character a value may hold before the door's name as it is: a name, a member, `?`, `:`, `|`, `&`, `!`, parentheses, spaces. */
const VALUE_CHAR = /[\w$.\s?:|&()!]/;
/** A declaration ending where its value starts (its type written or not): the name it declares. */
const DECLARED = /(?<![\w$])(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]*)?$/;
/** Declarations whose `=` starts a value running on, in a text with no `;` or `?` after them. */
const DECLARATIONS = /(?<![\w$])(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]*)?=(?![=>])/g;
const BY_DEFAULT = /(?<![\w$])export\s+default\s+(?!function|class|async)/;

/**
 * The variables whose value may be a name met at `ats` (ascending) as it is (`const gh = shellTool`,
 * `const gh = cond ? a ?? shellTool : b`), and whether the default export may be: the same language
 * as the forward pattern it replaced, read from each name back. Linear in the text: a walk back stops
 * at the previous name met (the same run of value characters), and each `?` is read once.
 */
export function heldBefore(text: string, ats: Iterable<number>): { names: string[]; byDefault: boolean } {
  const names: string[] = [];
  let byDefault = false;
  let lastAt = -1;
  for (const at of ats) {
    let q = at;
    while (q > 0 && q > lastAt && VALUE_CHAR.test(text[q - 1]!)) q--;
    // the run goes on from the previous name: its start was read there, only what follows is new
    const continued = lastAt >= 0 && q === lastAt;
    const from = q;
    lastAt = at;
    // the value right after a declaration's `=` (not `==`, `!=`, `<=`, `>=`: no declaration ends there)
    if (!continued && text[q - 1] === '=') {
      const eq = text.lastIndexOf('=', q - 2) + 1;
      const before = text.slice(eq, q - 1);
      const m = DECLARED.exec(before.slice(before.lastIndexOf(';') + 1));
      if (m) names.push(m[1]!);
    }
    byDefault ||= BY_DEFAULT.test(text.slice(from, at));
    // after a condition's `?`: a declaration before it with no `;` or `?` between (its condition)
    for (let k = text.indexOf('?', from); k >= 0 && k < at; k = text.indexOf('?', k + 1)) {
      const span = text.slice(text.lastIndexOf('?', k - 1) + 1, k);
      const condition = span.slice(span.lastIndexOf(';') + 1);
      for (const m of condition.matchAll(DECLARATIONS)) names.push(m[1]!);
      byDefault ||= BY_DEFAULT.test(condition);
    }
  }
  return { names: [...new Set(names)], byDefault };
}

/** What `heldInside` reads: a `;`, a list's or an object's opening, a declaration up to its `=`, or `export default`. */
const INSIDE_TOKENS = /;|[[{]|(?<![\w$])(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;]*)?=(?![=>])|(?<![\w$])export\s+default(?![\w$])/g;

/** The default export among `heldInside`'s names (no variable is named so). */
export const DEFAULT_HOLDER = '\0default';

/**
 * The variables whose value may hold a name met at `ats` (ascending) inside a list or an object
 * (`const tools = [shellTool]`, `const kit = { shell: shellTool }`, `cond ? [shellTool] : []`): a
 * declaration with a `[` or `{` after its `=` and before the name, with no `;` between; and the
 * default export so (`export default [shellTool]`: `DEFAULT_HOLDER`). One pass over the text, with
 * no bound on how far the name is from the declaration.
 */
export function heldInside(text: string, ats: readonly number[]): string[] {
  const out = new Set<string>();
  // the statement's declarations whose `=` no bracket followed yet, and those it did (in order)
  let pending: string[] = [];
  let inside: string[] = [];
  let added = 0;
  let k = 0;
  const namesMetBefore = (pos: number): void => {
    for (; k < ats.length && ats[k]! < pos; k++) {
      for (; added < inside.length; added++) out.add(inside[added]!);
    }
  };
  for (const m of text.matchAll(INSIDE_TOKENS)) {
    namesMetBefore(m.index);
    // every name met is read: what follows adds none (the rest of a long file is not scanned)
    if (k === ats.length) break;
    if (m[0] === ';') {
      pending = [];
      inside = [];
      added = 0;
    } else if (m[1] !== undefined) pending.push(m[1]);
    else if (m[0].startsWith('export')) pending.push(DEFAULT_HOLDER);
    else {
      inside.push(...pending);
      pending = [];
    }
  }
  namesMetBefore(Number.POSITIVE_INFINITY);
  return [...out];
}
