import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';
import { lines, lintRepo, testProject } from './rule-tester.js';
import { runInputFindings, S } from './run-input.js';

/**
 * Session 27, part 2 (issue 40 item 4, no silent break): more answers on a value TypeScript types as
 * the SDK's `RunState` that `sdk-approval` read as nothing, so the codemod rewrote the tool silently:
 * the right side of `&&` (`(ok && s).approve(i)`), a variable or member typed with an alias of a
 * function type (`const load: Loader`), a class's static method (`Store.load()`, `ReturnType<typeof
 * Api.load>`), the class's own `this.load()`, and a class declared inside a function. Each is one
 * finding; each has a control of the app's own in the same layout, none.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const TYPES = lines('interface Review { approve(i: Row): void; reject(i: Row): void }', `interface Pending { state: ${S} }`);
const lint = (server: string) =>
  lintRepo({ 'src/server.ts': lines(GEN, SDK, TYPES, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;

const suites: Record<string, { one: Record<string, string>; none: Record<string, string> }> = {
  'the right side of `&&`': {
    one: {
      'a state after an object': `export function ok(user: { id: string }, s: ${S}, i: Row) { (user && s).approve(i); }`,
      'a member read after its object (`entry && entry.state`)': 'export function ok(entry: Pending, i: Row) { (entry && entry.state).approve(i); }',
      'a local holding it': `export function ok(user: { id: string }, s: ${S}, i: Row) { const t = user && s; t.approve(i); }`,
      'a member of the right side': 'export function ok(user: { id: string }, p: Pending, i: Row) { (user && p).state.approve(i); }',
    },
    none: {
      "the app's own": 'export function ok(user: { id: string }, r: Review, i: Row) { (user && r).approve(i); }',
      "the state on the left, the app's own on the right (a state is never falsy)": `export function ok(s: ${S}, r: Review, i: Row) { (s && r).approve(i); }`,
      "a member of the app's own on the right": 'export function ok(p: Pending, q: { state: Review }, i: Row) { (p && q).state.approve(i); }',
    },
  },
  'a variable or member typed with an alias of a function type': {
    one: {
      'a variable': lines(`type Loader = () => ${S};`, 'declare const load: Loader;', 'export function ok(i: Row) { load().approve(i); }'),
      'a parameter': lines(`type Loader = () => ${S};`, 'export function ok(load: Loader, i: Row) { load().approve(i); }'),
      'an alias of an alias': lines(
        `type Base = () => ${S};`,
        'type Loader = Base;',
        'declare const load: Loader;',
        'export function ok(i: Row) { load().approve(i); }',
      ),
      'a member': lines(`type Loader = () => ${S};`, 'export function ok(h: { load: Loader }, i: Row) { h.load().approve(i); }'),
      'a local holding the call': lines(
        `type Loader = () => Promise<${S}>;`,
        'export async function ok(load: Loader, i: Row) { const s = await load(); s.approve(i); }',
      ),
    },
    none: {
      "a variable of an alias returning the app's own": lines(
        'type Loader = () => Review;',
        'declare const load: Loader;',
        'export function ok(i: Row) { load().approve(i); }',
      ),
      "a member of an alias returning the app's own": lines(
        'type Loader = () => Review;',
        'export function ok(h: { load: Loader }, i: Row) { h.load().approve(i); }',
      ),
    },
  },
  'an awaited call of a method or a function-typed value': {
    one: {
      "an interface's method, into a local": lines(
        `interface Api { load(): Promise<${S}> }`,
        'export async function ok(h: Api, i: Row) { const s = await h.load(); s.approve(i); }',
      ),
      "an interface's method, in place": lines(
        `interface Api { load(): Promise<${S}> }`,
        'export async function ok(h: Api, i: Row) { (await h.load()).approve(i); }',
      ),
      'a parameter written with a function type': `export async function ok(load: () => Promise<${S}>, i: Row) { (await load()).approve(i); }`,
    },
    none: {
      "an interface's method giving the app's own": lines(
        'interface Api { load(): Promise<Review> }',
        'export async function ok(h: Api, i: Row) { const s = await h.load(); s.approve(i); }',
      ),
    },
  },
  'a class field holding an arrow, and `ReturnType` of an alias of a function type': {
    one: {
      'an instance field (`new Store().load()`)': lines(
        `class Store { load = (): ${S} => null!; }`,
        'export function ok(i: Row) { new Store().load().approve(i); }',
      ),
      "the class's own async field, awaited (`await this.load()`)": lines(
        `class Store { load = async (): Promise<${S}> => null!; async ok(i: Row) { (await this.load()).approve(i); } }`,
        'export { Store };',
      ),
      'a static field (`Store.load()`)': lines(`class Store { static load = (): ${S} => null!; }`, 'export function ok(i: Row) { Store.load().approve(i); }'),
      'an instance field whose arrow is checked with `satisfies` (the arrow keeps its type)': lines(
        `class Store { load = ((): ${S} => null!) satisfies () => unknown; }`,
        'export function ok(i: Row) { new Store().load().approve(i); }',
      ),
      '`ReturnType<Loader>`': lines(`type Loader = () => ${S};`, 'export function ok(s: ReturnType<Loader>, i: Row) { s.approve(i); }'),
    },
    none: {
      "an instance field's arrow returning the app's own": lines(
        'class Store { load = (): Review => null!; }',
        'export function ok(i: Row) { new Store().load().approve(i); }',
      ),
      "an instance field's arrow with no written return type (nothing inferred)": lines(
        'class Store { load = (r: Review) => r; }',
        'export function ok(r: Review, i: Row) { new Store().load(r).approve(i); }',
      ),
      "`ReturnType<Loader>` of the app's own": lines('type Loader = () => Review;', 'export function ok(s: ReturnType<Loader>, i: Row) { s.approve(i); }'),
    },
  },
  "a class's static method": {
    one: {
      '`Store.load()`': lines(`class Store { static load(): ${S} { return null!; } }`, 'export function ok(i: Row) { Store.load().approve(i); }'),
      'a local holding the call': lines(
        `class Store { static load(): ${S} { return null!; } }`,
        'export function ok(i: Row) { const s = Store.load(); s.approve(i); }',
      ),
      "a base class's static method": lines(
        `class Base { static load(): ${S} { return null!; } }`,
        'class Store extends Base {}',
        'export function ok(i: Row) { Store.load().approve(i); }',
      ),
      '`this.load()` in a static method': lines(
        `class Store { static load(): ${S} { return null!; } static ok(i: Row) { this.load().approve(i); } }`,
        'export { Store };',
      ),
      'a static field written with a function type': lines(
        `class Store { static load: () => ${S}; }`,
        'export function ok(i: Row) { Store.load().approve(i); }',
      ),
      'a constant holding the class (`const S = Store`)': lines(
        `class Store { static load(): ${S} { return null!; } }`,
        'const S = Store;',
        'export function ok(i: Row) { S.load().approve(i); }',
      ),
      'a class expression (`const Store = class { … }`)': lines(
        `const Store = class { static load(): ${S} { return null!; } };`,
        'export function ok(i: Row) { Store.load().approve(i); }',
      ),
      '`ReturnType<typeof Api.load>`': lines(
        `class Api { static load(): ${S} { return null!; } }`,
        'export function ok(s: ReturnType<typeof Api.load>, i: Row) { s.approve(i); }',
      ),
    },
    none: {
      "a static method returning the app's own": lines(
        'class Store { static load(): Review { return null!; } }',
        'export function ok(i: Row) { Store.load().approve(i); }',
      ),
      "an instance method of the SDK's type beside a static one of the app's": lines(
        `class Store { static load(): Review { return null!; } load(): ${S} { return null!; } }`,
        'export function ok(i: Row) { Store.load().approve(i); }',
      ),
      "a local of the class's name, with no written type, hiding it": lines(
        `class Store { static load(): ${S} { return null!; } }`,
        'export function ok(i: Row) { const Store = { load: (): Review => null! }; Store.load().approve(i); }',
      ),
      "a constant holding a class of the app's own": lines(
        `class Store { static load(): ${S} { return null!; } }`,
        'class Mine { static load(): Review { return null!; } }',
        'export function ok(i: Row) { const Store = Mine; Store.load().approve(i); }',
      ),
      "a parameter of the class's name hiding it": lines(
        `class Store { static load(): ${S} { return null!; } }`,
        'export function ok(Store: { load(): Review }, i: Row) { Store.load().approve(i); }',
      ),
      "`ReturnType<typeof Api.load>` of the app's own": lines(
        'class Api { static load(): Review { return null!; } }',
        'export function ok(s: ReturnType<typeof Api.load>, i: Row) { s.approve(i); }',
      ),
    },
  },
  "the class's own `this.load()`": {
    one: {
      'in another method': lines(`class Store { load(): ${S} { return null!; } ok(i: Row) { this.load().approve(i); } }`, 'export { Store };'),
      "a base class's method": lines(
        `class Base { load(): ${S} { return null!; } }`,
        'class Store extends Base { ok(i: Row) { this.load().approve(i); } }',
        'export { Store };',
      ),
      'in an arrow inside a method': lines(
        `class Store { load(): ${S} { return null!; } ok(i: Row) { [1].forEach(() => this.load().approve(i)); } }`,
        'export { Store };',
      ),
    },
    none: {
      "a method returning the app's own": lines('class Store { load(): Review { return null!; } ok(i: Row) { this.load().approve(i); } }', 'export { Store };'),
      "an instance method of the app's own beside a static one of the SDK's": lines(
        `class Store { static load(): ${S} { return null!; } load(): Review { return null!; } ok(i: Row) { this.load().approve(i); } }`,
        'export { Store };',
      ),
    },
  },
  'a class declared inside a function': {
    one: {
      '`new Store().load()`': lines(
        'export function ok(i: Row) {',
        `  class Store { load(): ${S} { return null!; } }`,
        '  new Store().load().approve(i);',
        '}',
      ),
      '`const store = new Store()`': lines(
        'export function ok(i: Row) {',
        `  class Store { load(): ${S} { return null!; } }`,
        '  const store = new Store();',
        '  store.load().approve(i);',
        '}',
      ),
      'a static method of a class declared inside a function': lines(
        'export function ok(i: Row) {',
        `  class Store { static load(): ${S} { return null!; } }`,
        '  Store.load().approve(i);',
        '}',
      ),
    },
    none: {
      "the inner class's method returning the app's own, beside a top class of the SDK's": lines(
        `class Store { load(): ${S} { return null!; } }`,
        'export function ok(i: Row) {',
        '  class Store { load(): Review { return null!; } }',
        '  new Store().load().approve(i);',
        '}',
      ),
    },
  },
};

for (const [suite, { one, none }] of Object.entries(suites))
  describe(suite, () => {
    for (const [name, server] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(1));
    for (const [name, server] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(server)).toBe(0));
  });

describe('a class another file of the app exports', () => {
  const lintWith = (server: string, store: string) =>
    lintRepo(
      { 'src/server.ts': lines(GEN, SDK, TYPES, "import { Store } from './store.js';", server), 'src/store.ts': lines(SDK, TYPES, store) },
      { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' },
    ).length;
  const one: Record<string, [string, string]> = {
    'its static method (`Store.load()`)': [
      'export function ok(i: Row) { Store.load().approve(i); }',
      `export class Store { static load(): ${S} { return null!; } }`,
    ],
    "its base class's static method, declared in that file": [
      'export function ok(i: Row) { Store.load().approve(i); }',
      `class Base { static load(): ${S} { return null!; } }\nexport class Store extends Base {}`,
    ],
    '`ReturnType<typeof Store.load>` of its static method': [
      'export function ok(s: ReturnType<typeof Store.load>, i: Row) { s.approve(i); }',
      `export class Store { static load(): ${S} { return null!; } }`,
    ],
  };
  const none: Record<string, [string, string]> = {
    "its static method returning the app's own": [
      'export function ok(i: Row) { Store.load().approve(i); }',
      'export class Store { static load(): Review { return null!; } }',
    ],
    'a class of the same name the function declares, hiding the import': [
      'export function ok(i: Row) { class Store { static load(): Review { return null!; } } Store.load().approve(i); }',
      `export class Store { static load(): ${S} { return null!; } }`,
    ],
    "`ReturnType<typeof Store.load>` of the app's own": [
      'export function ok(s: ReturnType<typeof Store.load>, i: Row) { s.approve(i); }',
      'export class Store { static load(): Review { return null!; } }',
    ],
  };
  for (const [name, [server, store]] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lintWith(server, store)).toBe(1));
  for (const [name, [server, store]] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lintWith(server, store)).toBe(0));
});

describe("a run's input of `a && b`: a resume only when it is surely a state", () => {
  it('one run-without-context finding: a test or a state (`ok && s`)', () => {
    expect(runInputFindings(`ok: boolean, s: ${S}`, 'ok && s')).toBe(1);
  });
  it('control: a state after a state (`s && t`) resumes (no finding)', () => {
    expect(runInputFindings(`s: ${S}, t: ${S}`, 's && t')).toBe(0);
  });
});

describe('the codemod keeps close_account where the app answers through these shapes (a conflict, not a silent rewrite)', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));
  const HEAD = [
    "import { Agent, type RunState } from '@openai/agents';",
    "import { closeAccount, lookupCharge } from './tools.js';",
    "const desk = new Agent({ name: 'desk', instructions: 'Help.', tools: [closeAccount, lookupCharge] });",
    'export { desk };',
  ];
  const shapes: Record<string, string[]> = {
    '`(user && s).approve(item)`': [`export function yes(user: { id: string }, s: ${S}, item: any) {`, '  (user && s).approve(item);', '}'],
    '`load().approve(item)` of `load: Loader`': [`type Loader = () => ${S};`, 'export function yes(load: Loader, item: any) {', '  load().approve(item);', '}'],
    '`Store.load().approve(item)` of a static method': [
      `class Store { static load(): ${S} { return null!; } }`,
      'export function yes(item: any) {',
      '  Store.load().approve(item);',
      '}',
    ],
    "`this.load().approve(item)` in the class's method": [
      'export class Desk {',
      `  load(): ${S} { return null!; }`,
      '  yes(item: any) {',
      '    this.load().approve(item);',
      '  }',
      '}',
    ],
    'a class declared inside the function': [
      'export function yes(item: any) {',
      `  class Store { load(): ${S} { return null!; } }`,
      '  new Store().load().approve(item);',
      '}',
    ],
  };
  for (const [name, code] of Object.entries(shapes))
    it(`one conflict naming the answer's line: ${name}`, async () => {
      const root = makeTempDir('answers-read-silently-2-');
      dirs.push(root);
      cpSync(path.join(FIXTURES, 'codemod/_shared'), root, { recursive: true });
      cpSync(path.join(FIXTURES, 'codemod/app-approvals/input'), root, { recursive: true });
      const text = [...HEAD, ...code, ''];
      writeFileSync(path.join(root, 'src/app.ts'), text.join('\n'));
      const line = text.findIndex((l) => l.includes('.approve(item)')) + 1;
      const r = await cli(['codemod'], { cwd: root });
      expect(r.stdout).toContain('1 conflicts');
      expect(r.stdout).toContain(`answered at src/app.ts:${line}:`);
      expect(r.code).toBe(1);
    });
});
