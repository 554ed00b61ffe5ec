/**
 * Compiles one action of the normalized policy into straight-line TypeScript: a decision function
 * (one `if` per rule, first match wins) and template functions. Pure: text in, text out.
 * The emitted code must agree exactly with `evaluate()` of `src/policy/evaluate.ts`.
 */
import type { Condition, Operand, PolicyAction, Template } from '../policy/types.js';

/** Module-local helpers the emitted functions call; each is emitted only when used. */
export type Helper = 'own' | 'isInt' | 'isPart' | 'equal' | 'dataScope';

export const HELPER_SOURCE: Record<Helper, string> = {
  own: [
    '/** `Object.hasOwn` (ES2022; Node 16.9+), typed here so the module needs no `lib: es2022`. */',
    'const hasOwn = (Object as unknown as { hasOwn: (object: object, key: string) => boolean }).hasOwn;',
    '',
    '/** The argument `name` of a call, when the arguments are an object that has it as its own property (never an inherited one). */',
    'function own(args: unknown, name: string): unknown {',
    "  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;",
    '  return hasOwn(args, name) ? (args as Record<string, unknown>)[name] : undefined;',
    '}',
  ].join('\n'),
  isInt: [
    '/** An exact integer (never a boolean): a safe-integer number, or a bigint beyond 2^53. */',
    'function isInt(value: unknown): value is number | bigint {',
    "  return Number.isSafeInteger(value) || typeof value === 'bigint';",
    '}',
  ].join('\n'),
  isPart: [
    '/** What a template placeholder may resolve to: a non-empty string or an integer. */',
    'function isPart(value: unknown): value is string | number | bigint {',
    "  return (typeof value === 'string' && value !== '') || Number.isSafeInteger(value) || typeof value === 'bigint';",
    '}',
  ].join('\n'),
  equal: [
    '/** Type-strict, recursive equality of JSON values (`1` is not `true`, `"5"` is not `5`). */',
    'function equal(a: unknown, b: unknown): boolean {',
    '  if (a === b) return true;',
    "  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;",
    '  if (Array.isArray(a) || Array.isArray(b)) {',
    '    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;',
    '    return a.every((item, i) => equal(item, b[i]));',
    '  }',
    '  const keys = Object.keys(a);',
    '  if (keys.length !== Object.keys(b).length) return false;',
    '  return keys.every(',
    '    (k) =>',
    '      hasOwn(b, k) &&',
    '      equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),',
    '  );',
    '}',
  ].join('\n'),
  dataScope: [
    "/** CTRLRun's `data_scope`: the labels (`data:`) of the arguments the call supplies, each once. */",
    'function dataScope(args: unknown, labels: ReadonlyMap<string, string>): string[] {',
    "  if (typeof args !== 'object' || args === null || Array.isArray(args)) return [];",
    '  const scope: string[] = [];',
    '  for (const name of Object.keys(args)) {',
    '    const label = labels.get(name);',
    '    if (label !== undefined && !scope.includes(label)) scope.push(label);',
    '  }',
    '  return scope;',
    '}',
  ].join('\n'),
};

/** The subject CTRLRun derives at evaluation (§7.4) rather than reads from the arguments. */
const DATA_SCOPE = 'data_scope';

export const HELPER_ORDER: Helper[] = ['own', 'isInt', 'isPart', 'equal', 'dataScope'];

export interface CompiledFunction {
  name: string;
  source: string;
  helpers: Set<Helper>;
}

/** A single-quoted TypeScript string literal. */
export function tsString(value: string): string {
  let out = "'";
  for (const ch of value) {
    const code = ch.codePointAt(0) as number;
    if (ch === "'") out += "\\'";
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    // Control characters, line separators and lone surrogates (which UTF-8 cannot carry) are escaped.
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff))
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

/** Text inside a template literal: as `tsString`, plus the backtick and `${` escaped. */
function templateText(value: string): string {
  return tsString(value).slice(1, -1).replace(/\\'/g, "'").replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
}

const LINE_WIDTH = 100;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An object literal key: bare when it is a plain identifier, else a string literal. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : tsString(name);
}

/** A readable identifier fragment for a name: non-identifier characters become `_`. */
export function identifierPart(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_$]/g, '_');
  return cleaned === '' ? '_' : cleaned;
}

/** Text safe inside a line or block comment: one line, no comment terminator. */
export function commentText(text: string): string {
  return tsString(text).slice(1, -1).replace(/\\'/g, "'").replace(/\*\//g, '*\\/');
}

/** A TypeScript expression for an operand (integers beyond 2^53 as `BigInt('…')`: no ES2020 literal needed). */
function literal(value: Operand): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return tsString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return `BigInt(${tsString(value.toString())})`;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${propertyKey(k)}: ${literal(v)}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

function isContainer(value: Operand): boolean {
  return typeof value === 'object' && value !== null;
}

/** Local variable names for the arguments a function reads, unique and stable (`used` collects them). */
function argVariables(args: string[], used = new Set<string>()): Map<string, string> {
  const names = new Map<string, string>();
  for (const arg of args) names.set(arg, freshName(`$${identifierPart(arg)}`, used));
  return names;
}

function freshName(base: string, used: Set<string>): string {
  let name = base;
  for (let n = 2; used.has(name); n += 1) name = `${base}_${n}`;
  used.add(name);
  return name;
}

/**
 * Per rule, the variable each `when` entry reads. An equality test (`eq`, `in`) narrows its
 * variable to literal types for the rest of the `&&` chain, so a later entry on the same argument
 * comparing another literal would be a type error (TS2367) or an always-true test to a linter.
 * Such an entry reads an alias of the argument instead: a second `const` of type `unknown` that the
 * first test does not narrow. Same value, same result; `aliases` lists the declarations needed.
 */
function entryVariables(
  rules: readonly { when: readonly Condition[] }[],
  vars: Map<string, string>,
  used: Set<string>,
): { perRule: string[][]; aliases: Array<{ name: string; of: string }> } {
  const aliasesOf = new Map<string, string[]>();
  const aliases: Array<{ name: string; of: string }> = [];
  const perRule = rules.map((rule) => {
    const generation = new Map<string, number>();
    const narrowed = new Set<string>();
    return rule.when.map((c) => {
      const base = vars.get(c.arg) as string;
      let n = generation.get(c.arg) ?? 0;
      if (narrowed.has(c.arg)) {
        n += 1;
        generation.set(c.arg, n);
        narrowed.delete(c.arg);
      }
      if (c.op === 'eq' || c.op === 'in') narrowed.add(c.arg);
      if (n === 0) return base;
      const list = aliasesOf.get(base) ?? [];
      aliasesOf.set(base, list);
      while (list.length < n) {
        const name = freshName(base, used);
        list.push(name);
        aliases.push({ name, of: base });
      }
      return list[n - 1] as string;
    });
  });
  return { perRule, aliases };
}

/** `v` equals `value` (type-strict): `===` for a scalar (integers are normalized alike), `equal()` for a container. */
function equals(v: string, value: Operand, helpers: Set<Helper>): string {
  if (!isContainer(value)) return `${v} === ${literal(value)}`;
  helpers.add('equal');
  return `equal(${v}, ${literal(value)})`;
}

/**
 * One `when` entry over the variable `v` holding the argument (undefined when missing): the type test
 * it needs (if any) and the comparison that holds only after it. The caller emits each type test once per rule.
 */
function conditionParts(c: Condition, v: string, helpers: Set<Helper>): { guard?: string; test: string } {
  if (c.arg === DATA_SCOPE) return { test: scopeTest(c, v) };
  switch (c.op) {
    case 'eq':
      // undefined (missing) never equals an operand: operands are JSON values.
      return { test: equals(v, c.value, helpers) };
    case 'neq': {
      // Present and not equal: holds across types (`x_neq: 5` for "5", true, null, [5]).
      const eq = equals(v, c.value, helpers);
      const negated = eq.startsWith('equal(') ? `!${eq}` : eq.replace(' === ', ' !== ');
      return { guard: `${v} !== undefined`, test: negated };
    }
    case 'in': {
      const values = c.value as Operand[];
      if (values.length === 0) return { test: 'false' };
      if (values.length === 1) return { test: equals(v, values[0] as Operand, helpers) };
      return { test: `(${values.map((x) => equals(v, x, helpers)).join(' || ')})` };
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      helpers.add('isInt');
      const op = { lt: '<', lte: '<=', gt: '>', gte: '>=' }[c.op];
      return { guard: `isInt(${v})`, test: `${v} ${op} ${literal(c.value)}` };
    }
  }
}

/**
 * A condition on `data_scope` (a string[] of distinct labels), as `holdsOnScope` of evaluate.ts:
 * `in` shares a label; `eq`/`neq` against a list compare sets; anything else is constant.
 */
function scopeTest(c: Condition, v: string): string {
  const value = c.value;
  const strings = (list: Operand[]) => [...new Set(list.filter((x): x is string => typeof x === 'string'))];
  if (c.op === 'in') {
    const labels = Array.isArray(value) ? strings(value) : [];
    return labels.length === 0 ? 'false' : `(${labels.map((l) => `${v}.includes(${tsString(l)})`).join(' || ')})`;
  }
  if (c.op === 'eq' || c.op === 'neq') {
    if (!Array.isArray(value) || value.some((x) => typeof x !== 'string')) return c.op === 'neq' ? 'true' : 'false';
    const labels = strings(value);
    const same = [`${v}.length === ${labels.length}`, ...labels.map((l) => `${v}.includes(${tsString(l)})`)].join(' && ');
    return c.op === 'eq' ? `(${same})` : `!(${same})`;
  }
  return 'false';
}

/** A rule's entries as `&&` operands, each type test once (the first entry that needs it carries it). */
function ruleTests(when: Condition[], entryVars: string[], helpers: Set<Helper>): string[] {
  const guarded = new Set<string>();
  return when.map((c, i) => {
    const { guard, test } = conditionParts(c, entryVars[i] as string, helpers);
    if (guard === undefined || guarded.has(guard)) return test;
    guarded.add(guard);
    return `${guard} && ${test}`;
  });
}

function decisionLiteral(decision: string, rule: number | null, reason: string): string {
  return `{ decision: ${tsString(decision)}, rule: ${rule === null ? 'null' : String(rule)}, reason: ${tsString(reason)} }`;
}

/**
 * `function <name>(args: unknown): DecisionResult`: one `if` per rule in order, first match wins
 * (reason `rule[N]`, or `decision` for an action written `decision: X`); a rule with no conditions
 * always matches (later rules are then unreachable and not emitted); no match: deny, `no_matching_rule`.
 */
export function compileDecision(action: PolicyAction, name: string, policyFile: string): CompiledFunction {
  const helpers = new Set<Helper>();
  const argsUsed: string[] = [];
  for (const rule of action.rules) {
    for (const c of rule.when) if (!argsUsed.includes(c.arg)) argsUsed.push(c.arg);
  }
  const used = new Set<string>();
  const vars = argVariables(argsUsed, used);
  const { perRule, aliases } = entryVariables(action.rules, vars, used);
  const lines: string[] = [];
  const labels = action.data ?? [];
  const scoped = argsUsed.includes(DATA_SCOPE);
  const labelsName = `${name}_labels`;
  if (scoped && labels.length > 0) {
    lines.push(`/** ${commentText(action.id)}: the \`data:\` labels, argument name to label. */`);
    lines.push(
      `const ${labelsName}: ReadonlyMap<string, string> = new Map([${labels.map(([arg, label]) => `[${tsString(arg)}, ${tsString(label)}]`).join(', ')}]);`,
    );
  }
  const readsArgs = argsUsed.some((arg) => arg !== DATA_SCOPE) || (scoped && labels.length > 0);
  lines.push(`/** ${commentText(action.id)}: ${action.rules.length} rule${action.rules.length === 1 ? '' : 's'}, first match wins; no match denies. */`);
  // No parameter when no rule reads the arguments: an unused one is a lint finding.
  lines.push(`function ${name}(${readsArgs ? 'args: unknown' : ''}): DecisionResult {`);
  for (const arg of argsUsed) {
    if (arg === DATA_SCOPE) {
      if (labels.length > 0) {
        helpers.add('dataScope');
        lines.push(`  const ${vars.get(arg)} = dataScope(args, ${labelsName});`);
      } else {
        lines.push(`  const ${vars.get(arg)}: readonly string[] = []; // no \`data:\` labels: the scope is empty`);
      }
      continue;
    }
    helpers.add('own');
    lines.push(`  const ${vars.get(arg)} = own(args, ${tsString(arg)});`);
  }
  for (const alias of aliases) lines.push(`  const ${alias.name} = ${alias.of}; // not narrowed by a rule's equality test on ${alias.of}`);
  let exhaustive = false;
  for (const [ruleIndex, rule] of action.rules.entries()) {
    const result = action.bare ? decisionLiteral(rule.decision, null, 'decision') : decisionLiteral(rule.decision, rule.index, `rule[${rule.index}]`);
    const where = `${commentText(policyFile)}:${rule.loc.line}`;
    if (rule.when.length === 0) {
      lines.push(`  // rules[${rule.index}] (${where}): always matches`);
      lines.push(`  return ${result};`);
      exhaustive = true;
      break;
    }
    const tests = ruleTests(rule.when, perRule[ruleIndex] as string[], helpers);
    lines.push(`  // rules[${rule.index}] (${where}): ${commentText(rule.when.map((c) => c.key).join(', '))}`);
    const oneLine = `  if (${tests.join(' && ')}) {`;
    if (oneLine.length <= LINE_WIDTH) {
      lines.push(oneLine);
    } else {
      // One `when` entry a line.
      lines.push('  if (');
      for (const [i, t] of tests.entries()) lines.push(`    ${t}${i < tests.length - 1 ? ' &&' : ''}`);
      lines.push('  ) {');
    }
    lines.push(`    return ${result};`, '  }');
  }
  if (!exhaustive) lines.push(`  return ${decisionLiteral('deny', null, 'no_matching_rule')};`);
  lines.push('}');
  return { name, source: lines.join('\n'), helpers };
}

/**
 * `function <name>(args: unknown[, resource: string | null]): TemplateResult`: each placeholder, left
 * to right, must resolve to a non-empty string or an integer; the first one that does not is named in
 * `{ ok: false, arg }`. In an effect template `{resource}` is the call's resolved resource (the second
 * parameter); an argument also named `resource` makes it ambiguous, refused (CTRLRun's rule).
 */
export function compileTemplate(template: Template, name: string, what: 'effect' | 'resource', actionId: string): CompiledFunction {
  const helpers = new Set<Helper>();
  const placeholders: string[] = [];
  for (const part of template.parts) if (part.kind === 'arg' && !placeholders.includes(part.arg)) placeholders.push(part.arg);
  const usesResource = what === 'effect' && placeholders.includes('resource');
  const argNames = placeholders.filter((p) => !(usesResource && p === 'resource'));
  const vars = argVariables(argNames);
  const lines: string[] = [];
  lines.push(`/** ${commentText(actionId)} ${what}: ${commentText(template.source)} */`);
  // No parameter that nothing reads (a lint finding): `resource` only where `{resource}` is in an effect template.
  const params = [...(placeholders.length > 0 ? ['args: unknown'] : []), ...(usesResource ? ['resource: string | null'] : [])];
  lines.push(`function ${name}(${params.join(', ')}): TemplateResult {`);
  if (placeholders.length > 0) helpers.add('own');
  if (argNames.length > 0) helpers.add('isPart');
  for (const arg of placeholders) {
    if (usesResource && arg === 'resource') {
      lines.push("  if (resource === null || own(args, 'resource') !== undefined) return { ok: false, arg: 'resource' };");
      continue;
    }
    const v = vars.get(arg) as string;
    lines.push(`  const ${v} = own(args, ${tsString(arg)});`);
    lines.push(`  if (!isPart(${v})) return { ok: false, arg: ${tsString(arg)} };`);
  }
  // A template literal when a placeholder is in it (linters prefer it to `+`), else a plain string.
  const value =
    placeholders.length === 0
      ? tsString(template.parts.map((part) => (part.kind === 'text' ? part.text : '')).join(''))
      : `\`${template.parts.map((part) => (part.kind === 'text' ? templateText(part.text) : usesResource && part.arg === 'resource' ? '${resource}' : `\${String(${vars.get(part.arg)})}`)).join('')}\``;
  lines.push(`  return { ok: true, value: ${value} };`);
  lines.push('}');
  return { name, source: lines.join('\n'), helpers };
}
