import type { ProjectContext } from '../../../src/check/types.js';
import { lines, ruleTester, testProject } from '../rule-tester.js';

const SDK = "import { SandboxAgent, shell, filesystem, skills, memory, compaction, Capabilities } from '@openai/agents/sandbox';";
const GEN = "import { protectAgent, protectSandboxAgent } from './ctrlrun.generated.js';";

/** The test project with the default capability tools mapped (every SandboxAgent's), and `extra` entries. */
function withSandbox(
  tools: string[] = ['exec_command', 'write_stdin', 'view_image', 'apply_patch'],
  agentTools: Record<string, string[]> = {},
): ProjectContext {
  const project = testProject();
  const loc = { file: '/repo/ctrlrun.tools.yaml', line: 30, column: 5 };
  for (const tool of tools) project.manifest.tools.push({ kind: 'sandbox', tool, action: 'stripe.charge.read', loc });
  for (const [agent, list] of Object.entries(agentTools))
    for (const tool of list) project.manifest.tools.push({ kind: 'sandbox', tool, agent, action: 'stripe.charge.read', loc });
  return project;
}

ruleTester(
  'unprotected-sandbox-agent',
  {
    valid: [
      {
        name: 'protectSandboxAgent(new SandboxAgent(...)) with its default tools mapped',
        code: lines(SDK, GEN, "export const box = protectSandboxAgent(new SandboxAgent({ name: 'box', instructions: 'x' }));"),
      },
      {
        name: 'a variable passed to protectSandboxAgent, and one passed to protectAgent (which guards it in place)',
        code: lines(
          SDK,
          GEN,
          "const a = new SandboxAgent({ name: 'a' });",
          'protectSandboxAgent(a);',
          "const b = new SandboxAgent({ name: 'b', capabilities: [shell(), filesystem(), memory(), compaction()] });",
          'export const root = protectAgent(b);',
        ),
      },
      {
        name: 'capabilities that give the model no tool (skills without lazyFrom, memory, compaction)',
        code: lines(
          SDK,
          GEN,
          "export const box = protectSandboxAgent(new SandboxAgent({ name: 'box', capabilities: [skills({ skills: [] }), memory(), compaction()] }));",
        ),
        project: withSandbox([]),
      },
      {
        name: "a tool mapped for this agent only (`sandbox: { agent: 'box', tool }`)",
        code: lines(SDK, GEN, "export const box = protectSandboxAgent(new SandboxAgent({ name: 'box', capabilities: [filesystem()] }));"),
        project: withSandbox([], { box: ['view_image', 'apply_patch'] }),
      },
      {
        name: 'a SandboxAgent of another library is not the SDK',
        code: lines("import { SandboxAgent } from 'other-sandbox';", "export const box = new SandboxAgent({ name: 'box' });"),
      },
    ],
    invalid: [
      {
        name: "an agent guarded in one function is not another function's variable of that name",
        code: lines(
          SDK,
          GEN,
          "export function safe() { const box = new SandboxAgent({ name: 'a' }); protectSandboxAgent(box); return box; }",
          "export function open() { const box = new SandboxAgent({ name: 'b' }); return box; }",
        ),
        errors: [{ line: 4, column: 38 }],
      },
      // issue 40: a name is read where it is used, not at its first declaration anywhere in the file
      {
        name: "capabilities held by a name: this function's, not another function's of the same name; a `let` is not read",
        code: lines(
          SDK,
          GEN,
          'function quiet() {',
          '  const caps = [compaction()];',
          "  return protectSandboxAgent(new SandboxAgent({ name: 'q', capabilities: caps }));",
          '}',
          'export function loud() {',
          '  const caps = [shell()];',
          "  return protectSandboxAgent(new SandboxAgent({ name: 'l', capabilities: caps }));",
          '}',
          'export function later() {',
          '  let caps = [compaction()];',
          '  caps = [shell()];',
          "  return new SandboxAgent({ name: 'm', capabilities: caps });",
          '}',
        ),
        project: withSandbox([]),
        errors: [
          { line: 9, column: 30, mentions: 'exec_command, write_stdin' },
          { line: 14, column: 10, mentions: 'tools check cannot list' },
        ],
      },
      {
        name: 'a SandboxAgent through an alias, its options in a variable, in parentheses (Reflect.construct is opaque-tool-factory)',
        code: lines(
          SDK,
          'const S = SandboxAgent;',
          "export const a = new S({ name: 'a' });",
          "const opts = { name: 'b' };",
          'export const b = new SandboxAgent(opts);',
          "export const c = new (SandboxAgent)({ name: 'c' });",
          "export const d = Reflect.construct(SandboxAgent, [{ name: 'd' }]);",
        ),
        errors: [
          { line: 3, column: 18 },
          { line: 5, column: 18 },
          { line: 6, column: 18 },
        ],
      },
      {
        name: 'new SandboxAgent with the default capabilities, not guarded',
        code: lines(SDK, "export const box = new SandboxAgent({ name: 'box', instructions: 'x' });"),
        errors: [{ line: 2, column: 20, mentions: 'exec_command, write_stdin' }],
      },
      {
        name: 'explicit capabilities, not guarded',
        code: lines(
          SDK,
          "export const box = new SandboxAgent({ name: 'box', capabilities: [shell(), filesystem(), skills({ lazyFrom: src }), memory(), compaction()] });",
        ),
        errors: [{ line: 2, column: 20, mentions: 'load_skill' }],
      },
      {
        name: 'a custom capability: the tools cannot be listed, still a door',
        code: lines(
          SDK,
          "class Deploy { type = 'deploy'; }",
          "export const box = new SandboxAgent({ name: 'box', capabilities: [...Capabilities.default(), new Deploy()] });",
        ),
        errors: [{ line: 3, column: 20, mentions: 'tools check cannot list' }],
      },
      {
        name: 'guarded, but a capability tool the manifest does not map (denied at run time)',
        code: lines(SDK, GEN, "export const box = protectSandboxAgent(new SandboxAgent({ name: 'box' }));"),
        project: withSandbox(['exec_command', 'apply_patch']),
        errors: [{ line: 3, column: 40, mentions: 'view_image, write_stdin' }],
      },
      {
        name: 'a tool mapped for another agent only does not count',
        code: lines(SDK, GEN, "export const box = protectSandboxAgent(new SandboxAgent({ name: 'box', capabilities: [filesystem()] }));"),
        project: withSandbox([], { other: ['view_image', 'apply_patch'] }),
        errors: [{ line: 3, column: 40, mentions: '`- sandbox: { tool: view_image }`' }],
      },
      {
        name: 'configureTools writing needsApproval: a gate only the SDK holds (the agent is guarded too)',
        code: lines(
          SDK,
          GEN,
          'export const box = protectSandboxAgent(',
          "  new SandboxAgent({ name: 'box', capabilities: [shell({ configureTools: (tools) => tools.map((t) => ({ ...t, needsApproval: async () => true })) })] }),",
          ');',
        ),
        errors: [{ line: 4, column: 58, mentions: 'needsApproval' }],
      },
    ],
  },
  withSandbox(),
);

// Red team #1 (issue 35): a class of the app that extends SandboxAgent makes SandboxAgents too.
ruleTester(
  'unprotected-sandbox-agent',
  {
    valid: [
      {
        name: 'a subclass wrapped in protectSandboxAgent',
        code: lines(
          SDK,
          GEN,
          'class OpsAgent extends SandboxAgent {}',
          "export const ops = protectSandboxAgent(new OpsAgent({ name: 'ops', instructions: 'x' }));",
        ),
      },
      { name: 'a class extending something else', code: lines(SDK, 'class Box extends Map {}', 'export const b = new Box();') },
      {
        name: 'a class of the repo extending SandboxAgent, imported and guarded; one imported from the repo extending something else',
        code: lines(
          GEN,
          "import { OpsAgent, Store } from './box';",
          "export const ops = protectSandboxAgent(new OpsAgent({ name: 'ops', instructions: 'x' }));",
          'export const s = new Store();',
        ),
        files: { 'src/box.ts': lines(SDK, 'export class OpsAgent extends SandboxAgent {}', 'export class Store extends Map {}') },
      },
    ],
    invalid: [
      {
        name: 'new X() of a class extending SandboxAgent, through two classes of the file',
        code: lines(
          SDK,
          'export class OpsAgent extends SandboxAgent {}',
          'const Night = class extends OpsAgent {};',
          "export const ops = new OpsAgent({ name: 'ops', instructions: 'x' });",
          "export const night = new Night({ name: 'night', capabilities: [shell()] });",
        ),
        errors: [
          { line: 4, column: 20, mentions: "SandboxAgent 'ops' gives the model view_image, apply_patch, exec_command, write_stdin" },
          { line: 5, column: 22, mentions: "SandboxAgent 'night' gives the model exec_command, write_stdin with" },
        ],
      },
      {
        name: 'a subclass that declares members: its tools are not what the call shows',
        code: lines(
          SDK,
          'class OpsAgent extends SandboxAgent {',
          '  constructor() { super({ name: "ops", capabilities: [shell()] }); }',
          '}',
          "export const ops = new OpsAgent({ name: 'ops' });",
        ),
        errors: [{ line: 5, column: 20, mentions: 'class OpsAgent declares members' }],
      },
      {
        name: 'new X() of a class extending SandboxAgent imported from another module of the repo (a file that names no SDK export)',
        code: lines(
          "import { OpsAgent, Night } from './box';",
          "export const ops = new OpsAgent({ name: 'ops', instructions: 'x' });",
          "export const night = new Night({ name: 'night' });",
        ),
        files: {
          'src/box.ts': lines(
            SDK,
            'export class OpsAgent extends SandboxAgent {}',
            'class Base extends SandboxAgent { constructor() { super({ name: "base", capabilities: [shell()] }); } }',
            'class Night extends Base {}',
            'export { Night };',
          ),
        },
        errors: [
          { line: 2, column: 20, mentions: "SandboxAgent 'ops' gives the model view_image, apply_patch, exec_command, write_stdin" },
          { line: 3, column: 22, mentions: 'class Base declares members' },
        ],
      },
    ],
  },
  withSandbox(),
);
