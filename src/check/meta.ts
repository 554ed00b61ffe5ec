import { VERSION } from '../version.js';
import type { RuleMeta } from './types.js';
import { mcpFunctionToolMeta } from './rules/mcp-function-tool.js';
import { unmappedProtectedToolMeta } from './rules/unmapped-protected-tool.js';
import { runWithoutContextMeta } from './rules/run-without-context.js';
import { realtimeApprovalUnansweredMeta } from './rules/realtime-approval-unanswered.js';

/** The project's page (SARIF `informationUri`). */
export const DOCS_BASE = 'https://www.npmjs.com/package/ctrlrun-gen';

/** A rule's page, `docs/rules/<id>.md`, as published in the package of this version (SARIF `helpUri`). */
export function ruleDocsUri(id: string): string {
  return `https://unpkg.com/ctrlrun-gen@${VERSION}/docs/rules/${id}.md`;
}

/**
 * Every rule `check` can report, in a fixed order (the SARIF `ruleIndex` is the position here).
 * The first eleven are SPEC §7; the last three are about the lint's own input.
 */
export const RULES: readonly RuleMeta[] = [
  {
    id: 'unprotected-tool',
    severity: 'error',
    short: 'An SDK tool() call whose name is mapped in ctrlrun.tools.yaml is not a protected variant.',
    full:
      'The tool is mapped to a policy action, but the code still builds it with the SDK\'s own `tool()`, so the policy never decides its calls: no approval, no effect key, no receipt. A `tool()` whose `name` cannot be resolved statically (only a string literal, a `const` string of the same file, or a `const` string exported by a relative module can) is reported here too, since it cannot be mapped.',
    help: 'Run `npx ctrlrun-gen codemod --write` (or `check --fix`): it rewrites the call to `protectedTool(\'<action>\', { ... })` from the generated module.',
  },
  {
    id: 'unmapped-tool',
    severity: 'error',
    short: 'An SDK tool() call whose name has no entry in ctrlrun.tools.yaml.',
    full:
      'Every tool the model may call must be mapped to a policy action, or no rule ever decides its calls. The finding names the manifest entry to add; once mapped, the codemod protects the call.',
    help: 'Add an entry `- tool: <name>` with `action: <id>` under `tools:` in ctrlrun.tools.yaml (the finding shows it), add the action to ctrlrun.yaml, then run `npx ctrlrun-gen codemod --write`.',
  },
  {
    id: 'unknown-action',
    severity: 'error',
    short: 'protectedTool() names an action the policy does not define, or not the one the manifest maps its tool to.',
    full:
      'An action the policy does not list is denied at run time with reason `unknown_action`, so the tool can never run; more often it is a typo or a stale generated module. An action that is not a string literal cannot be checked and is reported too, and so is an action other than the one ctrlrun.tools.yaml maps the tool\'s `name` to (the wrong rules would decide its calls; at run time `protectedTool` refuses to make such a tool). Names are compared as the SDK sanitizes them (`\'Refund Expert\'` is `Refund_Expert`).',
    help: 'Use one of the actions of ctrlrun.yaml (as a string literal), or add the action to the policy and run `npx ctrlrun-gen generate`.',
  },
  {
    id: 'unsafe-error-function',
    severity: 'error',
    short: 'A tool\'s errorFunction turns failures into a "please try again" for the model.',
    full:
      'The SDK\'s default `errorFunction` answers the model "An error occurred while running the tool. Please try again." for any exception, and a custom one can swallow this library\'s refusals the same way: a refusal becomes an invitation to retry, and a side effect can land several times. An SDK `tool()` with the default or a custom `errorFunction` is an error. A `protectedTool` whose action can run (allow or approve on some path) but declares no `effect` and has a custom `errorFunction` is a warning: this library\'s refusals propagate, but the custom function hands the tool\'s own failures to the model, which may retry. A `protectedTool` with no `errorFunction` is not reported: the runtime\'s default lets a body failure reach your code, never the model.',
    help: 'Protect the tool (`npx ctrlrun-gen codemod --write`); give its action an `effect:` key template in ctrlrun.yaml, or pass `errorFunction: null` so failures reach your code.',
  },
  {
    id: 'sticky-approval',
    severity: 'error',
    short: '`alwaysApprove: true` makes one approval authorize every later call of the tool.',
    full:
      '`state.approve(item, { alwaysApprove: true })` (or `approveTool`) tells the SDK to approve every later call of that tool in the run: calls no human saw. Protected tools refuse such calls (the store has no answer for them), so the run stalls; unprotected tools run them.',
    help: 'Approve each call on its own with the Control: `control.approve(state, item, { approver })`.',
  },
  {
    id: 'needs-approval-override',
    severity: 'error',
    short: '`needsApproval` passed to protectedTool() overrides the policy.',
    full:
      'A protected tool\'s approvals come from the policy; a `needsApproval` in its options would replace the policy\'s decision with the code\'s, out of sight of the policy file and its hash.',
    help: 'Remove `needsApproval` and express the condition as a rule with `decision: approve` in ctrlrun.yaml.',
  },
  {
    id: 'hosted-mcp-unguarded',
    severity: 'error',
    short: 'hostedMcpTool() whose calls can run with no approval the policy answers.',
    full:
      'A hosted MCP tool runs on the model provider\'s side; the SDK defaults `requireApproval` to `\'never\'`, so every tool of that server runs with no human and no policy. A tool listed in `requireApproval.never` is never shown to the policy either, so it is reported unless the server\'s action always allows (with no policy loaded, check says it cannot tell). A hand-written `onApproval` answers each request inline: it cannot wait for a person and records nothing. `protectHostedMcp(...)` from the generated module is not reported.',
    help: 'Use `protectHostedMcp({ serverLabel, ... })` from the generated module (no `requireApproval`, no `onApproval`), with `- hosted_mcp: { server_label }` mapped to an action in ctrlrun.tools.yaml; `npx ctrlrun-gen codemod --write` rewrites it.',
  },
  {
    id: 'mcp-server-unguarded',
    severity: 'error',
    short: 'An MCP server reaches an agent\'s `mcpServers` with no `protectMcpServer` guard.',
    full:
      'The SDK builds the tools of `agent.mcpServers` on every turn and runs their calls with no policy, no approval and no receipt. Each server that reaches `mcpServers` (in `new Agent`, `Agent.create`, `clone`, a later assignment or `push`) is reported unless it is `protectMcpServer(...)`, a variable made by it or passed to it in the same file, or the agent is passed to `protectAgent` in the same file (which guards its servers in place). A server check cannot follow (a spread of an unknown array, a function\'s result, an import) is reported too. An MCP `errorFunction` other than `null` (on a server, or in `mcpConfig`) is reported: it turns a failed call into text the model retries. A guarded server with a mapped tool whose action can be `approve` gets a warning: a tool of `mcpServers` cannot pause, so such calls are refused (`protectMcpTools` can pause). So does a guarded server made here with a mapped tool whose action pins a TLS certificate (`upstream.tls_cert_sha256`, `tls_cert_file`) and no `fetch: upstreamFetch(...)`: every call of that action is refused `upstream_unverified`.',
    help: 'Wrap each server where it reaches the agent: `protectMcpServer(server)` from the generated module, with its tools mapped in ctrlrun.tools.yaml (`- mcp: { server, tool }`); use `protectMcpTools` when a call must be able to pause for a person. Set MCP `errorFunction`s to `null`.',
  },
  {
    id: 'stale-generated',
    severity: 'error',
    short: 'The generated module differs from what `generate` would write.',
    full:
      'The protected tools enforce the policy compiled into the generated module; when ctrlrun.yaml or ctrlrun.tools.yaml changed since it was written, the code enforces an old policy (or the file is missing).',
    help: 'Run `npx ctrlrun-gen generate` and commit the result.',
  },
  {
    id: 'policy-invalid',
    severity: 'error',
    short: 'The policy or the tool manifest does not load.',
    full:
      'Nothing can be checked against a policy that does not load: the finding is the loader\'s own located error (the same as `validate` prints), and `check` exits 2 (a configuration error).',
    help: 'Fix the file at the location given (`npx ctrlrun-gen validate` lists every error), or create it with `npx ctrlrun-gen init`.',
  },
  {
    id: 'tracing-sensitive-data',
    severity: 'warning',
    short: '`@openai/agents` is imported and its tracing sends tool inputs and outputs out.',
    full:
      'Importing `@openai/agents` installs the default trace exporter, which sends every tool call\'s input and output to a fixed endpoint. Nowhere in the repo is tracing disabled (`setTracingDisabled(true)`, or `tracingDisabled: true` in the config of the SDK\'s `new Runner(...)`) or `traceIncludeSensitiveData: false` set there. The same flags in any other object literal do nothing and do not count.',
    help: 'Call `setTracingDisabled(true)` at startup, or run with `traceIncludeSensitiveData: false` in the run config.',
  },
  {
    id: 'parse-error',
    severity: 'error',
    short: 'A source file does not parse, so it could not be checked.',
    full:
      'A file with a syntax error is reported rather than skipped in silence: a door in it would go unseen. Nothing else is reported for that file.',
    help: 'Fix the syntax error (your compiler reports the same place).',
  },
  {
    id: 'invalid-suppression',
    severity: 'error',
    short: 'A `// ctrlrun-ignore` comment without a reason, or naming no known rule.',
    full:
      'A suppression must say which rule it silences and why: `// ctrlrun-ignore <rule-id> -- <reason>` on the line before the finding. One that gives no reason or names an unknown rule suppresses nothing.',
    help: 'Write `// ctrlrun-ignore <rule-id> -- <why this is safe>` with one of the rule ids of `docs/rules/`.',
  },
  {
    id: 'unused-suppression',
    severity: 'warning',
    short: 'A `// ctrlrun-ignore` comment that suppresses nothing.',
    full:
      'The finding the comment was written for is gone (or was never on the next line): the stale comment would silently hide a future finding there.',
    help: 'Delete the comment.',
  },
  {
    id: 'opaque-tool-factory',
    severity: 'error',
    short: 'An SDK tool factory is reached in a way check cannot follow to its calls.',
    full:
      'The SDK\'s `tool` (or a module that exports it) is passed on as a value, copied with `bind`, read with a computed key, or loaded with an `import()` that is not awaited where it is made. Whatever it builds there is a tool no policy decides, and check cannot see it, so the use itself is reported: a door the lint cannot prove closed is a finding.',
    help: 'Call the factory directly (`tool({ name: \'...\', ... })`, `sdk.tool(...)`, `const { tool } = await import(\'@openai/agents\')`) so check and the codemod can see and protect each tool; or suppress with the reason the value never builds a tool.',
  },
  {
    id: 'object-literal-tool',
    severity: 'error',
    short: 'A function tool written by hand as an object literal (`{ type: \'function\', invoke }`).',
    full:
      'The SDK runs any object with `type: \'function\'` and an `invoke` as a function tool. One written by hand never goes through `tool()`, so neither the codemod nor the policy ever sees it: its calls run with no decision, no approval and no receipt.',
    help: 'Build it with the SDK\'s `tool({ name, description, parameters, execute })`, map its name in ctrlrun.tools.yaml, then run `npx ctrlrun-gen codemod --write`.',
  },
  {
    id: 'invoke-replaced',
    severity: 'error',
    short: 'A tool\'s `invoke` is replaced (`{ ...tool, invoke }`, `Object.assign(tool, { invoke })`, `tool.invoke = ...`).',
    full:
      'A protected tool decides, asks for approval and writes its receipt inside its `invoke`. A copy with another `invoke`, or the same object with `invoke` reassigned, runs the body with none of that: the policy is skipped without a word.',
    help: 'Keep the protected tool as the generated module builds it; put extra behaviour in the tool\'s `execute`, or in a new action of ctrlrun.yaml.',
  },
  {
    id: 'sdk-approval',
    severity: 'error',
    short: 'An interruption is approved or rejected through the SDK (`state.approve/reject`) in a repo with protected tools.',
    full:
      'A protected tool asks its approvals through the Control, which records who answered, checks the answer is for the exact arguments, and refuses an approver who asked for the call. Approving its interruption with the SDK\'s `state.approve(item)` (or `reject`, `approveTool`, `rejectTool`) skips all of that, and the protected tool then refuses the call with `ApprovalMismatch` out of `run()`. Reported in every repo whose manifest maps a tool or whose code builds a protected tool, since check cannot tell statically which tool an interruption belongs to.',
    help: 'Answer through the Control: `await control.approve(state, item, { approver })` or `await control.reject(state, item, { approver, message })`, then resume the run with the same state.',
  },
  {
    id: 'unreadable-file',
    severity: 'error',
    short: 'A source file or directory could not be read or decoded, so it was not checked.',
    full:
      'check looks at every file git tracks and every untracked file .gitignore does not exclude. A file it cannot open (permissions), a directory it cannot list, or a file that is not valid UTF-8 or UTF-16 (byte-order marks are honoured) is reported rather than skipped in silence: a door in it would go unseen.',
    help: 'Make the file readable by the CI user, or save it as UTF-8; if it is not source code, give it another extension or ignore it in .gitignore (untracked files only).',
  },
  {
    id: 'unprotected-door',
    severity: 'error',
    short: 'An SDK shellTool(), applyPatchTool() or computerTool() call: a door the model can open with no policy.',
    full:
      'The SDK runs a local shell command, a file patch or a computer action for the model with no approval by default, and an inline `needsApproval`/`onApproval` records no approver and binds no answer to the call. `protectShellTool(action, options)`, `protectApplyPatchTool(action, options)` and `protectComputerTool(action, options)` from the generated module decide each call by the policy, pause for a person, run an approved call once and write receipts.',
    help: 'Replace `shellTool({ ... })` with `protectShellTool(\'<action>\', { ... })`, `applyPatchTool({ ... })` with `protectApplyPatchTool(\'<action>\', { ... })` and `computerTool({ ... })` with `protectComputerTool(\'<action>\', { ... })` from the generated module (drop `needsApproval`/`onApproval`; the policy decides); `npx ctrlrun-gen codemod --write` does it for tools mapped by name in ctrlrun.tools.yaml.',
  },
  {
    id: 'unprotected-agent-tool',
    severity: 'error',
    short: '`agent.asTool()` not made by `protectAgentTool`.',
    full:
      'An agent turned into a tool with the SDK\'s `asTool()` runs a nested run that no policy decides. A refusal or a failure inside it reaches the parent model as "An error occurred while running the tool. Please try again.", so the parent retries and the nested tools may act twice, and the nested run does not inherit `traceIncludeSensitiveData: false`, so its tools\' inputs and outputs are traced. check follows agents the SDK made in the same file (`new Agent`, `Agent.create`, `clone`, through variables).',
    help: 'Use `protectAgentTool(\'<action>\', agent, { ... })` from the generated module (without `needsApproval`), with the action in ctrlrun.yaml; map the tool\'s name in ctrlrun.tools.yaml and `npx ctrlrun-gen codemod --write` rewrites it.',
  },
  {
    id: 'hosted-tool-ungated',
    severity: 'warning',
    short: 'A hosted tool (web search, file search, code interpreter, image generation, a hosted shell) that no client can gate.',
    full:
      'These tools run at OpenAI inside the model call: the SDK never sees a call before it happens, so no policy, approval or receipt of this library applies to them. What they read can still steer the model (a web page is untrusted input).',
    help: 'Keep them only where their results are safe to act on, or suppress with the reason: `// ctrlrun-ignore hosted-tool-ungated -- <why>`.',
  },
  {
    id: 'observe-mode',
    severity: 'warning',
    short: 'The policy is in `mode: observe`: calls run, decisions are only recorded.',
    full:
      'In observe mode every call runs whatever the policy decides: denials and approvals are written to the receipts (to measure what enforcing would do), no approval request is made and no effect key is reserved. A repository in this mode passes the other rules while nothing is protected, so check says so once, at the `mode:` line.',
    help: 'Switch to `mode: enforce` (or remove `mode:`) once the receipts show the policy decides as intended.',
  },
  {
    id: 'timeout-without-effect',
    severity: 'warning',
    short: '`timeoutMs` on a tool whose policy action has no `effect:`.',
    full:
      'When the SDK\'s `timeoutMs` fires, it stops waiting for the body but the body goes on running; the model reads "timed out" and often calls again. The runtime refuses a call with the same arguments while the first body runs (`still_running`), but only in its own process: without an `effect:` key, another process (or a retry with other arguments) runs the body a second time.',
    help: 'Give the action an `effect: "<key template>"` in ctrlrun.yaml so a second attempt is refused everywhere, or drop `timeoutMs`.',
  },
  {
    id: 'generated-import-unresolved',
    severity: 'error',
    short: 'An import of the generated module names a file that does not exist where the importer runs.',
    full:
      'The codemod makes a file import `protectedTool` (or another door function) from the generated module. A plain JavaScript file runs as it is: Node loads exactly the path written, so `import ... from "./ctrlrun.generated.js"` fails with ERR_MODULE_NOT_FOUND when the module is TypeScript (`ctrlrun.generated.ts`), though every type check passes. A TypeScript file resolves `.js` to `.ts`, `.mjs` to `.mts` and their declaration files, as tsc does. Reported when the generated module exists and the import resolves to no file; an import through a path alias is not followed.',
    help: 'Make the generated module JavaScript when a JavaScript file imports it: `output: src/ctrlrun.generated.mjs` and a JavaScript `control:` in ctrlrun.tools.yaml, then `npx ctrlrun-gen generate` (init chooses so when an importer is JavaScript); or fix the import\'s path.',
  },
  {
    id: 'node-module-in-browser',
    severity: 'error',
    short: 'Code that runs in a browser imports a Node-only module, or the generated module with a Node-only control.',
    full:
      'A Vite app, a package with a `browser` field or export condition, a client component (`\'use client\'`) and a file that runs a realtime session (`RealtimeSession`, `RealtimeAgent`) run in a browser, and so does every file they import. There a `node:` module, the SQLite or Postgres store (`ctrlrun-gen/runtime/sqlite`, `ctrlrun-gen/runtime/postgres`) or their drivers do not load: `vite build` fails (`"existsSync" is not exported by "__vite-browser-external"`) though `tsc` and the tests pass. Reported at the browser file\'s import: of the Node-only module itself, or of the generated module when the control it loads imports one (the control\'s line is named). In a browser package, files of a `server/`, `api/` or `scripts/` folder, `*.server.*` files and build configs are taken to run on the server.',
    help: 'Give the control the browser-safe store: `store: httpStore({ url, token })` from \'ctrlrun-gen/runtime\' against `npx ctrlrun-gen serve --cors-origin <your app\'s origin>` (init writes it for a browser package), or move the Node-only code to the server.',
  },
  // Round 6 on: each rule's meta lives in its own module (src/check/rules/<id>.ts).
  mcpFunctionToolMeta,
  unmappedProtectedToolMeta,
  runWithoutContextMeta,
  realtimeApprovalUnansweredMeta,
  // Dead and dangerous rules of the policy (src/policy-test/analysis.ts), one module each.
  {
    id: 'shadowed-rule',
    severity: 'warning',
    short: 'A policy rule no call can reach: an earlier rule matches every call it matches.',
    full:
      'Rules are tried in order and the first match decides. When every call that satisfies a rule\'s conditions also satisfies an earlier rule\'s (a catch-all above it, a wider band, a superset of its `in` values), the later rule never decides anything: usually an exception written below the rule it was meant to carve out of. The finding names the earlier rule and a call that shows it, decided by the runtime\'s own decision.',
    help: 'Move the rule above the one that shadows it if it is the exception, or delete it.',
  },
  {
    id: 'contradictory-conditions',
    severity: 'warning',
    short: 'A policy rule whose conditions cannot all hold, so it never matches.',
    full:
      'A `when` entry on an argument holds only for some values; entries on the same argument that no one value satisfies together (`amount_gte: 100` with `amount_lte: 10`, `mode_eq: a` with `mode_in: [b, c]`, a comparison with a string, since `lt lte gt gte` hold only for integers) make the rule dead. The finding names the argument and the entries.',
    help: 'Fix the bounds or values so some call satisfies them all, or delete the rule.',
  },
  {
    id: 'allow-all-action',
    severity: 'warning',
    short: 'An action with an `effect:` whose rules allow every call.',
    full:
      'An `effect:` key marks an action that changes something (a refund, a write, a message). When its rules allow every call (`decision: allow`, or only `allow` rules down to a catch-all), the policy guards nothing but the templates: any amount, any target runs with no person asked. The finding shows a call that is allowed.',
    help: 'Bound what runs on its own (`when: { amount_lte: ... }` then `decision: allow`) and send the rest to a person (`decision: approve`) or deny it.',
  },
];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);

export function ruleMeta(id: string): RuleMeta {
  const meta = RULES.find((r) => r.id === id);
  if (!meta) throw new Error(`unknown rule id ${id}`);
  return meta;
}
