import type { FileScan } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const opaqueToolFactoryMeta: RuleMeta = {
  id: 'opaque-tool-factory',
  severity: 'error',
  short: 'An SDK door factory (a tool factory, `handoff`, `Agent`, ...) is reached in a way check cannot follow to what it makes.',
  full: "The SDK's `tool` (or another export that makes a door: `hostedMcpTool`, `shellTool`, `handoff`, `Agent`, `SandboxAgent`, a sandbox capability, `getAllMcpTools`; or a module that exports one) is passed on as a value (an argument, an array or object, a class field, a return, a default parameter), copied with `bind`, read with a computed key, or loaded with an `import()` that is not awaited where it is made. It is the same however it was reached: a named import, a namespace member (`sdk.tool`), `require('@openai/agents').tool`. Whatever it builds there is a door no policy decides, and check cannot see it, so the use itself is reported: a door the lint cannot prove closed is a finding.",
  help: "Call the factory directly (`tool({ name: '...', ... })`, `sdk.tool(...)`, `const { tool } = await import('@openai/agents')`) so check and the codemod can see and protect each tool; or suppress with the reason the value never builds a tool.",
};

/** A module specifier is quoted (`'@openai/agents'`), code is in backticks. */
const isSpecifier = (what: string): boolean => /^(?:@|\.{1,2}\/)[^\s()`]*$/.test(what);

/** `opaque-tool-factory`: a door factory reached in a way the scanner cannot follow (fail closed). */
export function opaqueToolFactoryRule(scan: FileScan): Finding[] {
  return (scan.opaqueFactoryUses ?? []).map((u) => {
    const what = isSpecifier(u.what) ? `'${u.what}'` : `\`${u.what}\``;
    const leads = u.door === undefined || u.door === 'tool' ? "the SDK's tool factory" : `the SDK's \`${u.door}\`, which makes doors`;
    return findingOf(
      opaqueToolFactoryMeta,
      scan.file,
      u.span,
      `${what} leads to ${leads}, but ${u.reason}: any door built from it is one no policy decides.`,
      'Call the factory directly (`tool({ name: ... })`, `new Agent({ ... })`, or `const { tool } = await import(...)`) so check and the codemod can see each door.',
    );
  });
}
