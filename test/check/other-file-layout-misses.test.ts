import { describe, expect, it } from 'vitest';
import { lines, lintRepo, testProject } from './rule-tester.js';

/**
 * Session 23, the red team's findings (issue 40 item 4): layouts next to the ones session 23 reads, where the
 * receiver's type is written in another file of the app. Each `one` case answers the SDK's RunState
 * (a miss is a silent break: the codemod rewrites the tool, every approved call is refused); each
 * `none` case answers the app's OWN RunState (a finding is a false alarm). The layout session 23
 * already read (a named interface) is the control. Session 24 reads the four it left: a generic of
 * another file given the state, a generic's default, module augmentation, an interface extending
 * another file's base.
 */
const GEN = "import { protectedTool } from './ctrlrun.generated.js';";
const SDK = "import type { RunState } from '@openai/agents';";
const lint = (files: Record<string, string>, server: string) =>
  lintRepo({ ...files, 'src/server.ts': lines(GEN, server) }, { project: testProject(), ruleId: 'sdk-approval', file: 'src/server.ts' }).length;
const USE = 'export function ok(p: Pending, i: Row) { p.state.approve(i); }';
const IFACE = 'export interface Pending { state: RunState<any, any> }';

const one: Record<string, [Record<string, string>, string]> = {
  'control: a named interface of another file': [{ 'src/types.ts': lines(SDK, IFACE) }, lines("import type { Pending } from './types.js';", USE)],
  'a default-exported interface (`export default interface Pending`)': [
    { 'src/types.ts': lines(SDK, 'export default interface Pending { state: RunState<any, any> }') },
    lines("import type Pending from './types.js';", USE),
  ],
  'a default export of a declared interface (`export default P`)': [
    { 'src/types.ts': lines(SDK, 'interface P { state: RunState<any, any> }', 'export default P;') },
    lines("import type Pending from './types.js';", USE),
  ],
  'a declaration file (`types.d.ts`) imported as `./types.js`': [
    { 'src/types.d.ts': lines(SDK, IFACE) },
    lines("import type { Pending } from './types.js';", USE),
  ],
  'a declaration file (`types.d.ts`) imported as `./types`': [{ 'src/types.d.ts': lines(SDK, IFACE) }, lines("import type { Pending } from './types';", USE)],
  'a declaration exported by a list under another name (`export type { P as Pending }`)': [
    { 'src/types.ts': lines(SDK, 'interface P { state: RunState<any, any> }', 'export type { P as Pending };') },
    lines("import type { Pending } from './types.js';", USE),
  ],
  "a barrel's namespace re-export (`export * as agents from '@openai/agents'`)": [
    { 'src/sdk.ts': "export * as agents from '@openai/agents';\n" },
    "import type { agents } from './sdk.js';\nexport function ok(s: agents.RunState<any, any>, i: Row) { s.approve(i); }",
  ],
  'a generic interface of another file given the SDK state (`Box<RunState>`)': [
    { 'src/types.ts': 'export interface Box<T> { state: T }\n' },
    lines(SDK, "import type { Box } from './types.js';", 'export function ok(p: Box<RunState<any, any>>, i: Row) { p.state.approve(i); }'),
  ],
  "a generic's default of another file (`Box<T = RunState>`)": [
    { 'src/types.ts': lines(SDK, 'export interface Box<T = RunState<any, any>> { state: T }') },
    "import type { Box } from './types.js';\nexport function ok(p: Box, i: Row) { p.state.approve(i); }",
  ],
  "a member added by another file's module augmentation (`declare module './types.js'`)": [
    {
      'src/types.ts': 'export interface Pending { id: string }\n',
      'src/aug.ts': lines(SDK, "declare module './types.js' { interface Pending { state: RunState<any, any> } }"),
    },
    lines("import type { Pending } from './types.js';", USE),
  ],
  'an interface extending a base of another file': [
    {
      'src/base.ts': lines(SDK, 'export interface Base { state: RunState<any, any> }'),
      'src/types.ts': "import type { Base } from './base.js';\nexport interface Pending extends Base { id: string }\n",
    },
    lines("import type { Pending } from './types.js';", USE),
  ],
};

const ENGINE_METHOD = '{ approve(x: unknown): void }';
const none: Record<string, [Record<string, string>, string]> = {
  "a parameter typed with a barrel's own class beside its `export *` of the SDK (a field of it is read right)": [
    { 'src/sdk.ts': "export * from '@openai/agents';\nexport class RunState { approve(x: unknown) {} }\n" },
    "import type { RunState } from './sdk.js';\nexport function ok(s: RunState, i: Row) { s.approve(i); }",
  ],
  "a barrel's own interface beside its `export *` of the SDK": [
    { 'src/sdk.ts': `export * from '@openai/agents';\nexport interface RunState ${ENGINE_METHOD}\n` },
    "import type { RunState } from './sdk.js';\nexport function ok(s: RunState, i: Row) { s.approve(i); }",
  ],
  "a barrel's own type alias beside its `export *` of the SDK": [
    { 'src/sdk.ts': `export * from '@openai/agents';\nexport type RunState = ${ENGINE_METHOD};\n` },
    "import type { RunState } from './sdk.js';\nexport function ok(s: RunState, i: Row) { s.approve(i); }",
  ],
  "a barrel's `export { RunState } from './own.js'` beside its `export *` of the SDK": [
    {
      'src/own.ts': 'export class RunState { approve(x: unknown) {} }\n',
      'src/sdk.ts': "export * from '@openai/agents';\nexport { RunState } from './own.js';\n",
    },
    "import type { RunState } from './sdk.js';\nexport function ok(s: RunState, i: Row) { s.approve(i); }",
  ],
};

describe('the SDK state typed in another file is still an answer', () => {
  for (const [name, [files, server]] of Object.entries(one)) it(`one sdk-approval finding: ${name}`, () => expect(lint(files, server)).toBe(1));
});
describe("the app's own RunState is no answer", () => {
  for (const [name, [files, server]] of Object.entries(none)) it(`no sdk-approval finding: ${name}`, () => expect(lint(files, server)).toBe(0));
});
