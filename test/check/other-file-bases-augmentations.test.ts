import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 24 (issue 40 item 4): an answer's receiver typed by an interface whose member is written
 * elsewhere: in a base it extends (of the file, of another file, through a namespace import, two
 * bases deep) or in another file's `declare module` augmentation of the interface's module. Each
 * `one` case answers the SDK's RunState (a miss is a silent break); each `none` case answers the
 * app's own state, or augments another module (a finding is a false alarm).
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const lint = (files: Record<string, string>, server: string) =>
  lintRepo({ ...files, 'src/server.ts': lines(GEN, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const USE = 'export function ok(p: Pending, i: Row) { p.state.approve(i); }';
const IMPORT = "import type { Pending } from './types.js';";
const OWN_STATE = 'export interface RunState { approve(x: unknown): void }';

const one: Record<string, [Record<string, string>, string]> = {
  'an interface extending a base the same file declares': [
    {},
    lines(SDK, 'interface Base { state: RunState<any, any> }', 'interface Pending extends Base { id: string }', USE),
  ],
  'an interface extending a base of another file through a namespace import (`extends b.Base`)': [
    {
      'src/base.ts': lines(SDK, 'export interface Base { state: RunState<any, any> }'),
      'src/types.ts': "import type * as b from './base.js';\nexport interface Pending extends b.Base { id: string }\n",
    },
    lines(IMPORT, USE),
  ],
  'a base of a base, each in another file': [
    {
      'src/base.ts': lines(SDK, 'export interface Base { state: RunState<any, any> }'),
      'src/mid.ts': "import type { Base } from './base.js';\nexport interface Mid extends Base { at: number }\n",
      'src/types.ts': "import type { Mid } from './mid.js';\nexport interface Pending extends Mid { id: string }\n",
    },
    lines(IMPORT, USE),
  ],
  "an augmentation whose file takes the SDK's state from the app's barrel": [
    {
      'src/sdk.ts': "export * from '@openai/agents';\n",
      'src/types.ts': 'export interface Pending { id: string }\n',
      'src/aug.ts': "import type { RunState } from './sdk.js';\ndeclare module './types.js' { interface Pending { state: RunState<any, any> } }\n",
    },
    lines(IMPORT, USE),
  ],
  'an augmentation naming the module without an extension (`./types`)': [
    {
      'src/types.ts': 'export interface Pending { id: string }\n',
      'src/aug.ts': lines(SDK, "declare module './types' { interface Pending { state: RunState<any, any> } }"),
    },
    lines(IMPORT, USE),
  ],
  'an augmentation adding a base of its own': [
    {
      'src/base.ts': lines(SDK, 'export interface Base { state: RunState<any, any> }'),
      'src/types.ts': 'export interface Pending { id: string }\n',
      'src/aug.ts': "import type { Base } from './base.js';\ndeclare module './types.js' { interface Pending extends Base {} }\n",
    },
    lines(IMPORT, USE),
  ],
  'a generic base of another file given the SDK state (`extends Box<RunState>`)': [
    {
      'src/box.ts': 'export interface Box<T> { state: T }\n',
      'src/types.ts': lines(SDK, "import type { Box } from './box.js';", 'export interface Pending extends Box<RunState<any, any>> { id: string }'),
    },
    lines(IMPORT, USE),
  ],
};

const none: Record<string, [Record<string, string>, string]> = {
  "an interface extending a base of another file that holds the app's own RunState": [
    {
      'src/base.ts': lines(OWN_STATE, 'export interface Base { state: RunState }'),
      'src/types.ts': "import type { Base } from './base.js';\nexport interface Pending extends Base { id: string }\n",
    },
    lines(IMPORT, USE),
  ],
  "a generic base of another file given the app's own RunState": [
    {
      'src/box.ts': 'export interface Box<T> { state: T }\n',
      'src/types.ts': lines(OWN_STATE, "import type { Box } from './box.js';", 'export interface Pending extends Box<RunState> { id: string }'),
    },
    lines(IMPORT, USE),
  ],
  'a cycle of bases that writes no state': [
    {
      'src/types.ts': "import type { B } from './b.js';\nexport interface Pending extends B { id: string }\n",
      'src/b.ts': "import type { Pending } from './types.js';\nexport interface B extends Pending { at: number }\n",
    },
    lines(IMPORT, USE),
  ],
  'a cycle of bases the same file declares': [{}, lines('interface A extends Pending { at: number }', 'interface Pending extends A { id: string }', USE)],
  "an augmentation giving the interface the app's own RunState": [
    {
      'src/types.ts': 'export interface Pending { id: string }\n',
      'src/aug.ts': lines(OWN_STATE, "declare module './types.js' { interface Pending { state: RunState } }"),
    },
    lines(IMPORT, USE),
  ],
  "an augmentation of another module (the SDK's state is not the imported interface's)": [
    {
      'src/types.ts': 'export interface Pending { id: string }\n',
      'src/other.ts': 'export interface Pending { id: string }\n',
      'src/aug.ts': lines(SDK, "declare module './other.js' { interface Pending { state: RunState<any, any> } }"),
    },
    lines(IMPORT, USE),
  ],
  'an augmentation of another interface of the module': [
    {
      'src/types.ts': 'export interface Pending { id: string }\nexport interface Other { id: string }\n',
      'src/aug.ts': lines(SDK, "declare module './types.js' { interface Other { state: RunState<any, any> } }"),
    },
    lines(IMPORT, USE),
  ],
};

describe('session 24: the SDK state written in a base or an augmentation is an answer', () => {
  for (const [name, [files, server]] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(files, server)).toBe(1));
});
describe("session 24: the app's own state through a base or an augmentation is no answer", () => {
  for (const [name, [files, server]] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(files, server)).toBe(0));
});
