import type { FileScan } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';

export const opaqueToolFactoryMeta: RuleMeta = {
  id: 'opaque-tool-factory',
  severity: 'error',
  short: 'An SDK tool factory is reached in a way check cannot follow to its calls.',
  full: "The SDK's `tool` (or a module that exports it) is passed on as a value, copied with `bind`, read with a computed key, or loaded with an `import()` that is not awaited where it is made. Whatever it builds there is a tool no policy decides, and check cannot see it, so the use itself is reported: a door the lint cannot prove closed is a finding.",
  help: "Call the factory directly (`tool({ name: '...', ... })`, `sdk.tool(...)`, `const { tool } = await import('@openai/agents')`) so check and the codemod can see and protect each tool; or suppress with the reason the value never builds a tool.",
};

/** `opaque-tool-factory`: a tool factory reached in a way the scanner cannot follow (fail closed). */
export function opaqueToolFactoryRule(scan: FileScan): Finding[] {
  return (scan.opaqueFactoryUses ?? []).map((u) =>
    findingOf(
      opaqueToolFactoryMeta,
      scan.file,
      u.span,
      `${u.what === 'tool' || !u.what.includes('/') ? `\`${u.what}\`` : `'${u.what}'`} leads to the SDK's tool factory, but ${u.reason}: any tool built from it is one no policy decides.`,
      'Call the factory directly (`tool({ name: ... })`, or `const { tool } = await import(...)`) so check and the codemod can see each tool.',
    ),
  );
}
