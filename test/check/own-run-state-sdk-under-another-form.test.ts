import { lines, ruleTester } from './rule-tester.js';
import { AT, helper } from './run-state-helper.js';

/**
 * Red team (session 22): the app's own RunState (scan/own-type-declared.ts) must not take the SDK's
 * RunState for the app's when the imported module still hands out the SDK's type: a local
 * declaration that is not what the module exports under that name, an inline `import('…')` type,
 * or an alias of the SDK's type reached through another local name or a barrel. Each is a silent
 * break (no sdk-approval finding, every approved call refused at run time).
 */
ruleTester('sdk-approval', {
  valid: [
    {
      name: "control: an exported interface RunState of the app's own, holding the SDK's state in a member",
      files: {
        'src/workflow.ts': lines(
          "import type { RunState as S } from '@openai/agents';",
          'export interface RunState { approve(step: unknown): void; sdk: S<any, any> }',
        ),
      },
      code: helper('./workflow.js'),
    },
  ],
  invalid: [
    {
      name: "a module that re-exports the SDK's RunState beside an unexported local interface of that name",
      files: {
        'src/workflow.ts': lines(
          "export { RunState } from '@openai/agents';",
          'interface RunState { approve(step: unknown): void }',
          'export function describe(s: RunState) { return s; }',
        ),
      },
      code: helper('./workflow.js'),
      errors: [AT],
    },
    {
      name: 'a module that star-exports the SDK beside an unexported local class RunState',
      files: {
        'src/workflow.ts': lines(
          "export * from '@openai/agents';",
          'class RunState { approve(step: unknown) {} }',
          'export const fresh = () => new RunState();',
        ),
      },
      code: helper('./workflow.js'),
      errors: [AT],
    },
    {
      name: "a module whose RunState is an inline import type of the SDK's",
      files: { 'src/workflow.ts': "export type RunState = import('@openai/agents').RunState<any, any>;\n" },
      code: helper('./workflow.js'),
      errors: [AT],
    },
    {
      name: "a module whose RunState aliases a local alias of the SDK's",
      files: { 'src/workflow.ts': lines("import type { RunState as S } from '@openai/agents';", 'type Sdk = S<any, any>;', 'export type RunState = Sdk;') },
      code: helper('./workflow.js'),
      errors: [AT],
    },
    {
      name: "a module whose class RunState extends a const holding the SDK's class",
      files: { 'src/workflow.ts': lines("import { RunState as S } from '@openai/agents';", 'const Base = S;', 'export class RunState extends Base {}') },
      code: helper('./workflow.js'),
      errors: [AT],
    },
    {
      name: "a module whose RunState aliases the SDK's through the app's barrel",
      files: {
        'src/sdk.ts': "export { RunState } from '@openai/agents';\n",
        'src/workflow.ts': lines("import type { RunState as S } from './sdk.js';", 'export type RunState = S<any, any>;'),
      },
      code: helper('./workflow.js'),
      errors: [AT],
    },
    {
      name: "a module whose interface RunState merges a second declaration extending the SDK's",
      files: {
        'src/workflow.ts': lines(
          "import type { RunState as S } from '@openai/agents';",
          'export interface RunState { note: string }',
          'export interface RunState extends S<any, any> {}',
        ),
      },
      code: helper('./workflow.js'),
      errors: [AT],
    },
    {
      name: "a module whose class RunState merges an interface extending the SDK's",
      files: {
        'src/workflow.ts': lines(
          "import type { RunState as S } from '@openai/agents';",
          'export class RunState { note = "" }',
          'export interface RunState extends S<any, any> {}',
        ),
      },
      code: helper('./workflow.js'),
      errors: [AT],
    },
  ],
});
