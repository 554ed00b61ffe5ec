import type { FileScan } from '../../scan/types.js';
import type { Finding, RuleMeta } from '../types.js';
import { findingOf } from './rule-finding.js';
import { AGENT_TOOL_STEPS } from '../../scan/file/agent-tool-exports.js';

export const objectLiteralToolMeta: RuleMeta = {
  id: 'object-literal-tool',
  severity: 'error',
  short: "A function tool written by hand: an object literal (`{ type: 'function', invoke }`) or a class that implements `FunctionTool`.",
  full: "The SDK runs any object with `type: 'function'` and an `invoke` as a function tool, however it is made: an object literal (its `type` written or held by a `const`), or an instance of a class that implements `FunctionTool` or sets `type = 'function'` beside an `invoke`. One written by hand never goes through `tool()`, so neither the codemod nor the policy ever sees it: its calls run with no decision, no approval and no receipt.",
  help: "Build it with the SDK's `tool({ name, description, parameters, execute })`, map its name in ctrlrun.tools.yaml, then run `npx ctrlrun-gen codemod --write`.",
};

/** `object-literal-tool`: `{ type: 'function', invoke, ... }` or a `FunctionTool` class, written by hand. */
export function objectLiteralToolRule(scan: FileScan): Finding[] {
  return (scan.objectLiteralTools ?? []).map((t) =>
    findingOf(
      objectLiteralToolMeta,
      scan.file,
      t.span,
      t.tooFar !== undefined
        ? `An agent's \`tools\` value \`${t.tooFar}\` is reached through more than ${AGENT_TOOL_STEPS} steps (lists, variables, calls, returns), so check cannot follow it to the tools it holds: a function tool written by hand there (its own \`invoke\`) never goes through tool(), so no policy decides its calls.`
        : t.typeText !== undefined
          ? `A function tool${t.name !== undefined ? ` '${t.name}'` : ''} handed to an agent's \`tools\`, written as an object literal with its own \`invoke\` and \`type: ${t.typeText}\`, a value check cannot read: if it is 'function', the SDK runs it, but it never goes through tool(), so no policy decides its calls.`
          : `A function tool${t.name !== undefined ? ` '${t.name}'` : ''} written ${t.form === 'class' ? 'as a class (its instances are function tools)' : 'as an object literal'} with its own \`invoke\`: the SDK runs it, but it never goes through tool(), so no policy decides its calls.`,
      'Build it with `tool({ name, description, parameters, execute })`, map its name in ctrlrun.tools.yaml, then run `npx ctrlrun-gen codemod --write`.',
    ),
  );
}
