import ts from 'typescript';
import { renderModuleText } from '../../src/generate/render.js';
import type { Policy } from '../../src/policy/types.js';
import type { CompiledPolicy } from '../../src/runtime/types.js';

/** The generated module of `policy`, transpiled and evaluated in memory: its compiled `policy` export. */
export function compileGenerated(policy: Policy, tools: Record<string, string> = {}): CompiledPolicy {
  const text = renderModuleText({
    policy,
    policyFile: 'ctrlrun.yaml',
    manifestFile: 'ctrlrun.tools.yaml',
    controlFile: 'src/ctrlrun.control.ts',
    controlSpecifier: './ctrlrun.control.js',
    tools,
    sdkTypes: '@openai/agents',
    inputsHash: '0'.repeat(64),
    version: '0.0.0',
  });
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  const require = (specifier: string): unknown => {
    // every binder of the runtime (bindProtectedTool, bindMcp, …) as a no-op: only `policy` is read
    if (specifier === 'ctrlrun-gen/runtime') return new Proxy({}, { get: () => () => () => undefined });
    if (specifier === './ctrlrun.control.js') return { default: {} };
    throw new Error(`unexpected import ${specifier}`);
  };
  new Function('exports', 'require', js)(exports, require);
  return exports['policy'] as CompiledPolicy;
}
