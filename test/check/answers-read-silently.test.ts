import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { runInputFindings, S } from './run-input.js';

/**
 * Session 27 (issue 40 item 4, no silent break): answers on a value TypeScript types as the SDK's
 * `RunState` (or an item as its interruption) that `sdk-approval` read as nothing, so the codemod
 * rewrote the tool silently: a receiver chosen by `?:`, `??` or `||` (either side may be the SDK's,
 * as for an untested union), an intersection `RunState & Extra` (a RunState whatever else it is),
 * an overloaded function or method (a call may take any signature), a class's method's written
 * return type (of `new Store()` or a value typed `Store`), and `ReturnType` of a member (`typeof
 * api.load`, `Api['load']`). Each is one finding; each has a control of the app's own in the same
 * layout, none.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState, RunToolApprovalItem } from '@openai/agents';";
const TYPES = lines(
  'interface Review { approve(i: Row): void; reject(i: Row): void }',
  `interface Pending { state: ${S} }`,
  'interface Own { approve(x: unknown): void }',
);
const TASK = `type T = { kind: 'agent'; state: ${S} } | { kind: 'review'; state: Review };`;
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const suites: Record<string, { one: Record<string, string>; none: Record<string, string> }> = {
  'a receiver or item chosen by `?:`, `??` or `||`': {
    one: {
      'the SDK state in the true branch': `export function ok(c: boolean, a: ${S}, b: Review, i: Row) { (c ? a : b).approve(i); }`,
      'the SDK state in the false branch': `export function ok(c: boolean, a: Review, b: ${S}, i: Row) { (c ? a : b).reject(i); }`,
      'a local holding the choice': `export function ok(c: boolean, a: ${S}, b: Review, i: Row) { const s = c ? a : b; s.approve(i); }`,
      'a branch reading a member (`c ? p.state : r`)': `export function ok(c: boolean, p: Pending, r: Review, i: Row) { (c ? p.state : r).approve(i); }`,
      'a member of the chosen object': `export function ok(c: boolean, p: Pending, q: { state: Review }, i: Row) { (c ? p : q).state.approve(i); }`,
      'a fallback (`saved ?? review`)': `export function ok(saved: ${S} | undefined, r: Review, i: Row) { (saved ?? r).approve(i); }`,
      'a fallback (`saved || review`)': `export function ok(saved: ${S} | undefined, r: Review, i: Row) { (saved || r).approve(i); }`,
      'the tested branch leaving the SDK kind': lines(TASK, "export function ok(t: T, r: Review, i: Row) { (t.kind === 'agent' ? t.state : r).approve(i); }"),
      'an item chosen by `?:`': `export function ok(c: boolean, o: Own, a: RunToolApprovalItem, b: Row) { o.approve(c ? a : b); }`,
    },
    none: {
      "both branches the app's own": `export function ok(c: boolean, a: Review, b: Review, i: Row) { (c ? a : b).approve(i); }`,
      "a fallback between the app's own": `export function ok(a: Review | undefined, b: Review, i: Row) { (a ?? b).approve(i); }`,
      "the tested branch leaving the app's kind": lines(
        TASK,
        "export function ok(t: T, r: Review, i: Row) { (t.kind === 'review' ? t.state : r).approve(i); }",
      ),
      "a member of either of the app's objects": `export function ok(c: boolean, p: { state: Review }, q: { state: Review }, i: Row) { (c ? p : q).state.approve(i); }`,
    },
  },
  'an intersection with the SDK state (`RunState & Extra`)': {
    one: {
      'a parameter': `export function ok(s: ${S} & { extra: 1 }, i: Row) { s.approve(i); }`,
      'an alias': lines(`type Tagged = ${S} & { extra: 1 };`, 'export function ok(s: Tagged, i: Row) { s.approve(i); }'),
      'a member': `export function ok(p: { state: ${S} & { extra: 1 } }, i: Row) { p.state.approve(i); }`,
      'a list iterated': `export function ok(ss: (${S} & { extra: 1 })[], i: Row) { for (const s of ss) s.approve(i); }`,
      'an item': 'export function ok(o: Own, item: RunToolApprovalItem & { extra: 1 }) { o.approve(item); }',
    },
    none: {
      "the app's own intersected": `export function ok(s: Review & { extra: 1 }, i: Row) { s.approve(i); }`,
      "an alias of the app's own intersected": lines('type Tagged = Review & { extra: 1 };', 'export function ok(s: Tagged, i: Row) { s.approve(i); }'),
    },
  },
  'an overloaded function or method (any signature may be the one called)': {
    one: {
      "a declared function's later overload": lines(
        "declare function load(k: 'a'): Review;",
        `declare function load(k: 'b'): ${S};`,
        "export function ok(i: Row) { load('b').approve(i); }",
      ),
      "a declared function's earlier overload": lines(
        `declare function load(k: 'b'): ${S};`,
        "declare function load(k: 'a'): Review;",
        "export function ok(i: Row) { load('b').approve(i); }",
      ),
      'a local holding the call': lines(
        "declare function load(k: 'a'): Review;",
        `declare function load(k: 'b'): ${S};`,
        "export function ok(i: Row) { const s = load('b'); s.approve(i); }",
      ),
      'overloads awaited': lines(
        "declare function load(k: 'a'): Promise<Review>;",
        `declare function load(k: 'b'): Promise<${S}>;`,
        "export async function ok(i: Row) { const s = await load('b'); s.approve(i); }",
      ),
      "a block's function overloads": lines(
        'export function ok(i: Row) {',
        "  function load(k: 'a'): Review;",
        `  function load(k: 'b'): ${S};`,
        '  function load(k: string): any { return k; }',
        "  load('b').approve(i);",
        '}',
      ),
      "an interface method's later overload": lines(
        `interface Loader { load(k: 'a'): Review; load(k: 'b'): ${S} }`,
        "export function ok(h: Loader, i: Row) { h.load('b').approve(i); }",
      ),
      "a class method's later overload": lines(
        `class Loader { load(k: 'a'): Review; load(k: 'b'): ${S}; load(k: string): any { return k; } }`,
        "export function ok(h: Loader, i: Row) { h.load('b').approve(i); }",
      ),
    },
    none: {
      "overloads each returning the app's own": lines(
        "declare function load(k: 'a'): Review;",
        "declare function load(k: 'b'): Review;",
        "export function ok(i: Row) { load('b').approve(i); }",
      ),
      "an implementation's signature, not one a caller sees": lines(
        "function load(k: 'a'): Review;",
        "function load(k: 'b'): Review;",
        `function load(k: string): ${S} | Review { return null!; }`,
        "export function ok(i: Row) { load('b').approve(i); }",
      ),
      "a class method's implementation signature": lines(
        `class Loader { load(k: 'a'): Review; load(k: 'b'): Review; load(k: string): ${S} | Review { return null!; } }`,
        "export function ok(h: Loader, i: Row) { h.load('b').approve(i); }",
      ),
    },
  },
  'a call of a variable holding a function with a written return type': {
    one: {
      'an arrow': lines(`const load = (): ${S} => null!;`, 'export function ok(i: Row) { load().approve(i); }'),
      'a function expression in a local, awaited': lines(
        'export async function ok(i: Row) {',
        `  const load = async function (): Promise<${S}> { return null!; };`,
        '  const s = await load();',
        '  s.approve(i);',
        '}',
      ),
      'a variable written with a function type': lines(`declare const load: (() => ${S});`, 'export function ok(i: Row) { load().approve(i); }'),
    },
    none: {
      "an arrow returning the app's own": lines('const load = (): Review => null!;', 'export function ok(i: Row) { load().approve(i); }'),
      "the variable's written type (an alias of the app's own), not its arrow's": lines(
        'type Loader = () => Review;',
        `const load: Loader = (): ${S} => null!;`,
        'export function ok(i: Row) { load().approve(i); }',
      ),
    },
  },
  "a class's method with a written return type": {
    one: {
      '`new Store().load()`': lines(`class Store { load(): ${S} { return null!; } }`, 'export function ok(i: Row) { new Store().load().approve(i); }'),
      'a value typed with the class': lines(
        `class Store { load(): ${S} { return null!; } }`,
        'export function ok(store: Store, i: Row) { store.load().approve(i); }',
      ),
      '`const store = new Store()`': lines(
        `class Store { load(): ${S} { return null!; } }`,
        'const store = new Store();',
        'export function ok(i: Row) { store.load().approve(i); }',
      ),
      'a local holding the call': lines(
        `class Store { load(): ${S} { return null!; } }`,
        'export function ok(store: Store, i: Row) { const s = store.load(); s.approve(i); }',
      ),
      'a member of what it returns': lines(
        'class Store { load(): Pending { return null!; } }',
        'export function ok(store: Store, i: Row) { store.load().state.approve(i); }',
      ),
      "a base class's method": lines(
        `class Base { load(): ${S} { return null!; } }`,
        'class Store extends Base {}',
        'export function ok(store: Store, i: Row) { store.load().approve(i); }',
      ),
    },
    none: {
      "a method returning the app's own": lines(
        'class Store { load(): Review { return null!; } }',
        'export function ok(i: Row) { new Store().load().approve(i); }',
      ),
      "a static method of the SDK's type beside an instance method of the app's": lines(
        `class Store { static load(): ${S} { return null!; } load(): Review { return null!; } }`,
        'export function ok(store: Store, i: Row) { store.load().approve(i); }',
      ),
    },
  },
  "`ReturnType` of a member (`typeof api.load`, `Api['load']`)": {
    one: {
      'a declared object': lines(`declare const api: { load(): ${S} };`, 'export function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }'),
      "an object literal's method": lines(
        `const api = { load(): ${S} { return null!; } };`,
        'export function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }',
      ),
      "an object literal's arrow": lines(
        `const api = { load: (): ${S} => null! };`,
        'export function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }',
      ),
      'a value `new` makes': lines(
        `class Api { load(): ${S} { return null!; } }`,
        'const api = new Api();',
        'export function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }',
      ),
      "a class's member by index (`Api['load']`)": lines(
        `class Api { load(): ${S} { return null!; } }`,
        "export function ok(s: ReturnType<Api['load']>, i: Row) { s.approve(i); }",
      ),
      'a member written as a union of function types (it distributes)': lines(
        `interface Api { load: (() => Review) | (() => ${S}) }`,
        "export function ok(s: ReturnType<Api['load']>, i: Row) { s.approve(i); }",
      ),
      'an object literal `as const`': lines(
        `const api = { load(): ${S} { return null!; } } as const;`,
        'export function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }',
      ),
      "an interface's last overload": lines(
        `interface Api { load(k: 'a'): Review; load(k: 'b'): ${S} }`,
        "export function ok(s: ReturnType<Api['load']>, i: Row) { s.approve(i); }",
      ),
    },
    none: {
      "a declared object's method returning the app's own": lines(
        'declare const api: { load(): Review };',
        'export function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }',
      ),
      "an object literal's method returning the app's own": lines(
        'const api = { load(): Review { return null!; } };',
        'export function ok(s: ReturnType<typeof api.load>, i: Row) { s.approve(i); }',
      ),
      "a class's member returning the app's own": lines(
        'class Api { load(): Review { return null!; } }',
        "export function ok(s: ReturnType<Api['load']>, i: Row) { s.approve(i); }",
      ),
      "an interface's earlier overload (TypeScript takes the last)": lines(
        `interface Api { load(k: 'b'): ${S}; load(k: 'a'): Review }`,
        "export function ok(s: ReturnType<Api['load']>, i: Row) { s.approve(i); }",
      ),
    },
  },
};

for (const [suite, { one, none }] of Object.entries(suites))
  describe(suite, () => {
    for (const [name, server] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
    for (const [name, server] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
  });

describe("a run's input read through the new shapes: a resume only when it is surely a state", () => {
  it('one run-without-context finding: either a state or a text (`c ? s : text`)', () => {
    expect(runInputFindings(`c: boolean, s: ${S}, text: string`, 'c ? s : text')).toBe(1);
  });
  it('control: a state either way (`c ? s : t`) resumes (no finding)', () => {
    expect(runInputFindings(`c: boolean, s: ${S}, t: ${S}`, 'c ? s : t')).toBe(0);
  });
  it('control: an intersection with the state (`RunState & Extra`) resumes (no finding)', () => {
    expect(runInputFindings(`s: ${S} & { extra: 1 }`, 's')).toBe(0);
  });
});
