import { ruleTester } from './rule-tester.js';
import { AT, helper, helperDeclaring } from './run-state-helper.js';

/**
 * A helper's parameter typed `RunState` imported from a relative module of the app (issue 40): when
 * that file declares a class, interface or type named `RunState` itself, the type is the app's own
 * (a workflow engine's state) and its `approve` no SDK answer; so when it re-exports the name from
 * another relative module that does (followed). A module that aliases the SDK's type under it, or
 * extends the SDK's type, stays taken for the SDK's, failing closed (the barrel cases of test/codemod/sdk-barrel-answers.test.ts still count).
 */
ruleTester('sdk-approval', {
  valid: [
    {
      name: 'a RunState declared in the file itself',
      code: helperDeclaring('interface RunState { approve(step: unknown): void }'),
    },
    {
      name: 'an interface RunState declared in the imported module',
      files: { 'src/workflow.ts': 'export interface RunState { approve(step: unknown): void }\n' },
      code: helper('./workflow.js'),
    },
    {
      name: 'a class RunState declared in the imported module, exported by a list',
      files: { 'src/workflow.ts': 'class RunState { approve(step: unknown) {} }\nexport { RunState };\n' },
      code: helper('./workflow.js'),
    },
    {
      name: 'a type RunState declared in a module of a parent folder',
      file: 'src/jobs/run.ts',
      files: { 'src/workflow.ts': 'export type RunState = { approve(step: unknown): void };\n' },
      code: helper('../workflow.js'),
    },
    {
      // followed since the red team's findings (session 23): the module it names declares its own
      name: 'a module that re-exports RunState from another of its own',
      files: {
        'src/workflow.ts': "export type { RunState } from './engine.js';\n",
        'src/engine.ts': 'export interface RunState { approve(step: unknown): void }\n',
      },
      code: helper('./workflow.js'),
    },
  ],
  invalid: [
    {
      name: "a module whose RunState is an alias of the SDK's",
      files: { 'src/workflow.ts': "import type { RunState as S } from '@openai/agents';\nexport type RunState = S<any, any>;\n" },
      code: helper('./workflow.js'),
      errors: [AT],
    },
    {
      name: "a module whose RunState extends the SDK's",
      files: { 'src/workflow.ts': "import type { RunState as S } from '@openai/agents';\nexport interface RunState extends S<any, any> { note: string }\n" },
      code: helper('./workflow.js'),
      errors: [AT],
    },
    {
      name: 'a module that declares no RunState',
      files: { 'src/workflow.ts': 'export interface Other { approve(step: unknown): void }\n' },
      code: helper('./workflow.js'),
      errors: [{ ...AT, mentions: 'may re-export' }],
    },
    {
      name: 'a package, not a relative module',
      files: { 'src/workflow.ts': 'export interface RunState { approve(step: unknown): void }\n' },
      code: helper('workflow-lib'),
      errors: [{ ...AT, mentions: 'may re-export' }],
    },
    {
      name: "a tsconfig alias to the app's file (not a relative module: a package's may be anyone's)",
      files: {
        'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'] } } }),
        'src/workflow.ts': 'export interface RunState { approve(step: unknown): void }\n',
      },
      code: helper('@app/workflow'),
      errors: [{ ...AT, mentions: 'may re-export' }],
    },
  ],
});
