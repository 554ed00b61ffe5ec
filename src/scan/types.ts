/**
 * What the shared scanner (SPEC §6, §7) reports about one source file. The codemod, `check`, the
 * generator (to find a tool's parameters) and `init` all consume this; there is one scanner.
 * Offsets are UTF-16 offsets into the file text (as the TypeScript compiler gives them);
 * lines and columns are 1-based.
 */

export interface Span {
  start: number;
  end: number;
  line: number;
  column: number;
}

/**
 * What an expression that leads to the SDK stands for: one export of an SDK entry (`tool`,
 * `Agent`), or a whole module (an SDK entry's namespace, or a local barrel that re-exports it).
 * `module` is the SDK specifier (`@openai/agents/realtime`) or, for a barrel, the specifier used.
 */
export type SdkValue =
  /** `changedBy`: a class of the repo extending this SDK class (imported from its module) that declares members on the way, so it may change what the call shows. */
  { kind: 'member'; module: string; member: string; changedBy?: string } | { kind: 'module'; module: string; member(name: string): SdkValue | undefined };

/** How the callee of an SDK call was bound in the file. */
export interface CalleeBinding {
  module: string;
  /** named: `import { tool as t }`; namespace: `import * as agents` / `agents.tool` / `realtime.tool`;
   *  require: `const { tool } = require(...)`. */
  kind: 'named' | 'namespace' | 'require';
  /** The local identifier used at the call site (`t`, `agents`, `realtime`). */
  localName: string;
  /** The specifier the local name was imported from when it is not the SDK entry itself (a barrel, an alias). */
  importedFrom?: string;
}

/** A property of the options object literal. */
export interface OptionProperty {
  span: Span;
  /** Span of the value expression (for a shorthand or method, the whole property). */
  valueSpan: Span;
  /** `true` / `false` / `null` literal, a string literal, or anything else. */
  valueKind: 'true' | 'false' | 'null' | 'string' | 'function' | 'other';
  /** The literal text for string values. */
  stringValue?: string;
  /** The identifier the value is (`name: NAME`, shorthand `{ name }`), through parentheses and casts. */
  identifier?: string;
  /** The property of an identifier the value reads (`name: NAMES.refund` or `NAMES['refund']`), through parentheses and casts. */
  member?: { object: string; key: string };
}

export interface ToolCallOptions {
  /** Span of the object literal passed as the first argument; absent when it is not a literal. */
  span?: Span;
  /** Properties by name (only those written literally in the object literal). */
  properties: Record<string, OptionProperty>;
  /** The object literal has a spread (`...base`): other properties may come from elsewhere. */
  hasSpread: boolean;
}

/** A call of the SDK's `tool(...)`. */
export interface SdkToolCall {
  kind: 'sdk-tool';
  span: Span;
  /** The callee expression (`tool`, `t`, `agents.tool`), which the codemod replaces. */
  callee: Span;
  binding: CalleeBinding;
  /** The literal `name`, when written as a string literal. */
  name?: string;
  options: ToolCallOptions;
  /** Offset just after the call's `(` (where the codemod inserts the action id). */
  argumentsStart?: number;
  /** The call has type arguments (`tool<Ctx>(...)`). */
  hasTypeArguments?: boolean;
  /**
   * The factory is called indirectly (`tool.call(this, o)`, `tool.apply(this, [o])`,
   * `Reflect.apply(tool, this, [o])`): the callee cannot simply become `protectedTool`.
   */
  indirect?: 'call' | 'apply' | 'reflect';
  /** How `name` was found: written as a literal, or a `const` in this file or a relative module. */
  nameSource?: NameSource;
  /** Why `name` could not be resolved to a string (absent when it was, or when there is no `name`). */
  nameUnresolved?: string;
  /** The top-level declaration the call is written in (`flowTools` of `export const flowTools = …`), what `tool: { at, in }` maps. */
  container?: string;
}

/** Where a resolved `name` came from. */
export type NameSource = 'literal' | 'const' | 'imported-const';

/** A call of an SDK tool factory other than `tool` and `hostedMcpTool` (`shellTool`, `computerTool`, `mcpToFunctionTool`, ...). */
export interface SdkFactoryCall {
  kind: 'sdk-factory';
  span: Span;
  /** The export called (`shellTool`). */
  factory: string;
  callee: Span;
  binding: CalleeBinding;
  options: ToolCallOptions;
  /** Offset just after the call's `(` (absent for an indirect call). */
  argumentsStart?: number;
  /** Called through `.call`, `.apply` or `Reflect.apply`: the callee cannot simply be replaced. */
  indirect?: 'call' | 'apply' | 'reflect';
  /** Each argument's span (a direct call only): the codemod rebuilds the arguments of a conversion it rewrites. */
  args?: Span[];
  /**
   * `getAllMcpTools` / `mcpToFunctionTool`: the MCP servers whose tools it converts (the `mcpServers`
   * option or first argument, the second argument), each followed as an element of `mcpServers` is.
   */
  mcpServers?: McpServerElement[];
}

/**
 * A place where an SDK tool factory (or a module that exports one) is reached in a way the scanner
 * cannot follow to a call: passed as a value, read with a computed key, a dynamic `import()` not
 * awaited, `tool.bind(...)`. Fail closed: `check` reports each.
 */
export interface OpaqueFactoryUse {
  kind: 'opaque-factory';
  span: Span;
  /** What is reached (`tool`, `@openai/agents`). */
  what: string;
  /** Why it cannot be followed, for the message. */
  reason: string;
  /** The SDK export the value is (`tool`, `Agent`, `handoff`, `Agent.create`); absent for a module. */
  door?: string;
}

/** A function tool written by hand as an object literal (`{ type: 'function', name, invoke }`). */
export interface ObjectLiteralTool {
  kind: 'object-literal-tool';
  span: Span;
  name?: string;
  /** How it is written: an object literal (the default) or a class whose instances are tools. */
  form?: 'object' | 'class';
  /** A `type` check cannot read, as written, on an object another module hands to an agent's `tools` (file/agent-tool-exports.ts). */
  typeText?: string;
  /**
   * No tool found: a value of an agent's `tools` (its text, shortened) that the search stops at past
   * its steps while it still leads on (file/agent-tool-exports.ts): a tool written by hand may lie past it.
   */
  tooFar?: string;
}

/**
 * A local door (`type: 'shell' | 'apply_patch' | 'computer'` with the code it runs) or a hosted MCP
 * tool (`type: 'hosted_tool'`, `providerData.type: 'mcp'`) written as the object its SDK factory
 * returns: the SDK's runner finds such tools by `type` alone, so no factory call declares them.
 */
export interface LiteralDoor {
  kind: 'literal-door';
  span: Span;
  door: 'shell' | 'apply_patch' | 'computer' | 'hosted_mcp';
  name?: string;
  /** A `type` check cannot read (`SHELL`, `Kinds.shell`), as written: the door is the one whose body the object holds. */
  typeText?: string;
  /** Hosted MCP: its `providerData` as written; absent when check cannot read it (not an object literal). */
  providerData?: ToolCallOptions;
  /** Hosted MCP: the literal `server_label`. */
  serverLabel?: string;
  /** Hosted MCP: a spread written after `require_approval` in `providerData` (it may override it). */
  spreadAfterRequireApproval?: Span;
}

/**
 * A tool's `invoke` replaced: `{ ...tool, invoke }`, `Object.assign(tool, { invoke })`,
 * `tool.invoke = ...`. A protected tool's decision runs in its `invoke`; replacing it skips the policy.
 */
export interface InvokeReplacement {
  kind: 'invoke-replacement';
  span: Span;
  /**
   * `override`: a method of a class extending the SDK's Agent (`class X extends Agent { getAllTools() {} }`);
   * `reflection`: `Object.defineProperty`, `Object.defineProperties`, `Reflect.set`, `Reflect.defineProperty` (`via`).
   */
  form: 'spread' | 'object-assign' | 'assignment' | 'override' | 'reflection';
  /** The reflective call, for `reflection` (`Object.defineProperty`). */
  via?: string;
  /** The identifier whose invoke is replaced (the class, for an override), when it is one. */
  target?: string;
  /** The method replaced when it is not `invoke`: one the SDK gets an agent's tools or handoffs from (`getAllTools`). */
  method?: string;
}

/**
 * A property a protected door depends on, written after the door was made (file/door-writes.ts):
 * the body of a protected local door (`sh.shell = x`, `{ ...ap, editor }`), the guard of a server
 * `protectMcpServer` guards (`github.toolInputGuardrails = [...]`, `.splice(0)`, `errorFunction`), the
 * approval of a hosted MCP tool (`t.providerData.require_approval = 'never'`).
 */
export interface DoorWrite {
  kind: 'door-write';
  span: Span;
  /** What made the object: the generated module's door (`protectShellTool`, `protectMcpServer`, `protectHostedMcp`), `hostedMcpTool`, or `hostedShell` (a hosted shell tool, file/hosted-shells.ts). */
  door: string;
  /** The property written (`shell`, `toolInputGuardrails`, `providerData`). */
  property: string;
  /** A write inside it: the key written there (`require_approval`, `[]` for an index, `length`) or the array method called (`splice`). */
  inner?: string;
  form: 'spread' | 'object-assign' | 'assignment' | 'reflection' | 'contents';
  /** The reflective call, for `reflection` (`Object.defineProperty`). */
  via?: string;
  /** The identifier the door is held in, when it is one (the object's text when `unresolved`). */
  target?: string;
  /**
   * Check cannot tell which object is written (a parameter of a method or a callback, an element of
   * an array, a function's result, a field of a base class, an export followed too far): `door` is
   * the one the write would break if it were that door.
   */
  unresolved?: true;
}

/**
 * A property of an imported binding written (`github.toolInputGuardrails = []` with `github`
 * imported, `d.github...` of a namespace): reported by the repo scan as a `DoorWrite` (or, for an
 * agent, an `InvokeReplacement`) when the module exports one of the doors in `breaks` under `name`.
 */
export interface ImportedWrite {
  specifier: string;
  /** The export read (`default` for a default import). */
  name: string;
  /** The members read on the export before the write (`ns.github.x = …` of `export * as ns`: `['github']`); a door only when the export is a namespace. */
  members?: string[];
  /** The door the write breaks if the export's value cannot be told (door-writes.ts `unknownHolderDoor`). */
  unknown?: string;
  /**
   * A write on an object check cannot follow, in a module naming neither the SDK nor the generated
   * module: reported (as such) when any of these modules exports a door of `breaks` under any name.
   */
  anyOf?: string[];
  /** The doors this write breaks (door-writes.ts `BREAKS`, `Agent` for its tool sources). */
  breaks: string[];
  span: Span;
  property: string;
  inner?: string;
  form: DoorWrite['form'];
  via?: string;
  target?: string;
}

/** `x.approve(item)` / `x.reject(item)` / `approveTool` / `rejectTool`: an SDK approval of an interruption. */
export interface SdkApproval {
  kind: 'sdk-approval';
  span: Span;
  method: 'approve' | 'reject' | 'approveTool' | 'rejectTool';
  /** The receiver's text (`state`, `result.state`), for the message. */
  receiver: string;
  /** The first argument's text (the interruption item). */
  item: string;
  /** The computed key as written (`verdict` of `state[verdict](item)`), when the method is named by one. */
  key?: string;
  /** Why a call check cannot tell from the SDK's is taken for it (a helper's untyped parameter: issue 40). */
  unsure?: string;
}

/** A call of `protectedTool('<action>', {...})` imported from the generated module. */
export interface ProtectedToolCall {
  kind: 'protected-tool';
  span: Span;
  callee: Span;
  /** The literal action id; absent when not a string literal. */
  action?: string;
  /** The `name` in the options, resolved like an SDK tool's (a literal or a `const`). */
  name?: string;
  nameSource?: NameSource;
  nameUnresolved?: string;
  actionSpan?: Span;
  options: ToolCallOptions;
  /** The top-level declaration the call is written in (see SdkToolCall). */
  container?: string;
}

export interface HostedMcpCall {
  kind: 'hosted-mcp';
  span: Span;
  /** The callee expression (`hostedMcpTool`, `agents.hostedMcpTool`), which the codemod replaces. */
  callee?: Span;
  binding: CalleeBinding;
  /** `server_label` / `serverLabel` literal if written. */
  serverLabel?: string;
  /**
   * The labels the call can get when it is not written in place but the file shows them all: the
   * options held by a constant, a label that is a parameter of the app's own helper whose calls
   * pass literals (`makeMcp('gitmcp')`, issue 40, item 5).
   */
  serverLabels?: string[];
  options: ToolCallOptions;
  /**
   * `requireApproval: { never: { toolNames: [...] } }` (or `never: [...]`): the tools listed to run
   * with no approval request. `complete` is false when the list is not all string literals.
   */
  neverToolNames?: { span: Span; names: Array<{ name: string; span: Span }>; complete: boolean };
  /** A spread written after `requireApproval` (`{ requireApproval: 'always', ...config }`): it may override it. */
  spreadAfterRequireApproval?: Span;
}

/** A door function of the generated module called (`protectMcpServer(s)`, `protectAgent(a)`, ...). */
export interface GeneratedDoorCall {
  kind: 'generated-door';
  span: Span;
  callee: Span;
  /** The export called. */
  door: string;
  /** The options literal (`protect…Tool(action, options)`, `protectAgentTool(action, agent, options)`). */
  options?: ToolCallOptions;
  /** The tool's name: the literal `name` / `toolName`, or the SDK's default (`shell`, `apply_patch`, the agent's name). */
  toolName?: string;
}

/** One element of an agent's `mcpServers`, and whether it is known to be guarded by `protectMcpServer`. */
export interface McpServerElement {
  span: Span;
  /** The element's text (`github`, `new MCPServerStdio({...})`). */
  text: string;
  /**
   * protected: `protectMcpServer(...)`, or an identifier made by it or passed to it in this file;
   * unprotected: a server no such call guards; opaque: something check cannot follow (a spread of
   * an unknown array, a call's result).
   */
  status: 'protected' | 'unprotected' | 'opaque';
  /** The server's `name` option, when it is written as a literal where the server is made. */
  serverName?: string;
  /** Its `fetch` option: a call of the generated module's `upstreamFetch`, another value, none (absent: unknown). */
  fetch?: 'upstreamFetch' | 'other' | 'none';
  /** Without a `fetch`: where the codemod would write one (the first option's offset; its line's indentation when options are one per line, else null). */
  fetchInsert?: { at: number; indent: string | null };
  /** An element of an array literal (the codemod can wrap it in place). */
  inArray?: boolean;
  /** Made by `new` of one of the SDK's MCP server classes (`MCPServerStdio`, …), in place or through variables. */
  sdkServer?: boolean;
  /** How the server is reached, where it is made with literal options (init maps or lists its tools from it). */
  launch?: McpServerLaunch;
}

/** The literal options of an SDK MCP server's construction: a command it starts, or a URL. */
export interface McpServerLaunch {
  /** `MCPServerStdio`, `MCPServerStreamableHttp`, `MCPServerSSE`. */
  transport: 'stdio' | 'http' | 'sse';
  fullCommand?: string;
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
}

/**
 * Where MCP servers reach an agent: `new Agent({ mcpServers })`, `Agent.create`, `agent.clone({
 * mcpServers })`, `agent.mcpServers = [...]`, `agent.mcpServers.push(...)`.
 */
export interface McpServerList {
  kind: 'mcp-server-list';
  /** The `mcpServers` property, assignment or push call. */
  span: Span;
  /** `handed-on`: an agent's list given to code check does not follow (what is added there is not seen). */
  form: 'agent' | 'clone' | 'assignment' | 'push' | 'handed-on';
  /** The agent is passed to `protectAgent` (directly, or by its variable in this file), which guards its servers in place. */
  agentProtected: boolean;
  elements: McpServerElement[];
}

/** An MCP `errorFunction` other than `null`: on a server's options, or in an agent's `mcpConfig`. */
export interface McpErrorFunction {
  kind: 'mcp-error-function';
  span: Span;
  where: 'server' | 'mcpConfig';
}

/**
 * `agent.asTool(...)` on an agent the SDK made (`new Agent`, `Agent.create`, `clone`, followed through
 * variables); also `asTool` reached another way: `agent.asTool.call(agent, o)`,
 * `Agent.prototype.asTool.call(agent, o)`, `.apply`, `Reflect.apply`, or as a value (`bind`, stored).
 */
export interface AgentAsToolCall {
  kind: 'agent-as-tool';
  span: Span;
  /** The whole callee `writer.asTool` (`Agent.prototype.asTool.call` when indirect), which the codemod replaces. */
  callee: Span;
  /** The receiver expression (`writer`; the `this` argument when indirect). */
  receiver: Span;
  /**
   * How `asTool` is reached when it is not called on its agent: through `.call(agent, o)` (the
   * codemod still rewrites it), `.apply`, `Reflect.apply`, or as a value (bound, stored, passed on:
   * no options check can read, `span` is where the method is read).
   */
  indirect?: 'call' | 'apply' | 'reflect' | 'value';
  options: ToolCallOptions;
  /** Number of arguments. */
  argumentCount: number;
  /** Offset just after the call's `(`. */
  argumentsStart: number;
  /** The tool's name: `toolName` when a literal, else the SDK's default from the agent's literal `name`. */
  toolName?: string;
  /**
   * Set when the scan cannot tell that the receiver is an SDK agent (imported from another module
   * of the repo, a parameter, a callback's argument): why. Reported all the same (fail closed).
   */
  receiverUnknown?: string;
}

/**
 * `new SandboxAgent({...})` of the SDK (`@openai/agents/sandbox`): its capabilities give the model
 * tools (by default `exec_command`, `write_stdin`, `view_image`, `apply_patch`).
 */
export interface SandboxAgentSite {
  kind: 'sandbox-agent';
  /** The `new SandboxAgent(...)` expression (the codemod wraps it in `protectSandboxAgent(...)`). */
  span: Span;
  /** The agent's literal `name`. */
  name?: string;
  /** The tools its capabilities give the model, when check can list them; absent when it cannot (`toolsUnknown` says why). */
  tools?: string[];
  /** Why the tools cannot be listed: a custom capability, a `configureTools`, capabilities check cannot read. */
  toolsUnknown?: string;
  /** `configureTools` functions that set `needsApproval`: a hand-written gate (the guard decides instead). */
  handApprovals: Span[];
  /** Guarded in place: inside `protectSandboxAgent(...)`/`protectAgent(...)`, or its variable passed to either in this file. */
  guarded: boolean;
}

/**
 * A handoff: the SDK's `handoff(agent, config)`, an agent listed in an agent's `handoffs`, or the
 * generated module's `protectHandoff(action, agent, config)`.
 */
export interface HandoffSite {
  kind: 'handoff';
  /** The call, or the listed agent. */
  span: Span;
  form: 'call' | 'element' | 'protected';
  /** The callee (`handoff`, `agents.handoff`; `protectHandoff` for the protected form). */
  callee?: Span;
  binding?: CalleeBinding;
  /** Offset just after the call's `(` (absent for an element or an indirect call). */
  argumentsStart?: number;
  /** The target agent's literal `name`, when this file shows it. */
  to?: string;
  /** The protected form's literal action. */
  action?: string;
  /** The config object literal (`handoff(agent, config)`'s second argument). */
  options?: ToolCallOptions;
  /** The config runs app code (`onHandoff`) or takes the model's input (`inputType`); `unknown`: a config check cannot read. */
  onHandoff: boolean | 'unknown';
  inputType: boolean | 'unknown';
  /** An element of an array literal (the codemod can wrap it in place). */
  inArray?: boolean;
  /**
   * The invoke function given another way than a config (not rewritable): `new Handoff(agent, f)`,
   * a class extending Handoff, or `h.onInvokeHandoff = f`. It is app code run on the model's input.
   */
  constructed?: 'new' | 'subclass' | 'assignment';
}

/** `new Agent({ mcpServers: [...] })` (also `Agent.create({...})`). */
export interface AgentMcpServers {
  kind: 'agent-mcp-servers';
  span: Span;
  /** The `mcpServers` property. */
  property: Span;
}

/** `state.approve(item, { alwaysApprove: true })` or `runContext.approveTool(item, { alwaysApprove: true })`. */
export interface StickyApproval {
  kind: 'sticky-approval';
  span: Span;
  method: 'approve' | 'approveTool';
  /** The `alwaysApprove` property. */
  property: Span;
}

/** An import (or require) of the generated module that binds `protectedTool`. */
export interface GeneratedModuleImport {
  span: Span;
  specifier: string;
  localName: string;
  /** `import` declaration or destructuring `require`. */
  syntax?: 'import' | 'require';
}

/** A `// ctrlrun-ignore <rule> -- <reason>` comment. */
export interface SuppressionComment {
  span: Span;
  ruleId: string;
  reason?: string;
}

/** One named binding of an import declaration or a destructuring `require`. */
export interface ImportedName {
  /** The exported name (`tool` in `tool as t`). */
  imported: string;
  /** The local name (`t`). */
  local: string;
  /** Span of the specifier / binding element (`tool as t`). */
  span: Span;
  typeOnly: boolean;
  /** Identifier references to this binding in the file (not counting the import itself). */
  references: number;
}

/** A top-level `import ... from 'm'`, or `const {...} = require('m')` / `const x = require('m')`. */
export interface ModuleImport {
  /** The whole statement. */
  span: Span;
  module: string;
  syntax: 'import' | 'require';
  /** `import type { ... }`. */
  typeOnly: boolean;
  defaultName?: string;
  /** `import * as x` or `const x = require(...)`. */
  namespaceName?: string;
  named: ImportedName[];
  /** Span of the `{ ... }` of named bindings, when present. */
  namedSpan?: Span;
}

export interface FileScan {
  /** Path relative to the scan root, with forward slashes. */
  file: string;
  /**
   * A module the listing left out, read because a scanned file imports it (unlisted-imports.ts):
   * `ignored` (git ignores it: built at build time) or `outside` (another folder of the repository).
   * The codemod does not rewrite it.
   */
  unlisted?: 'ignored' | 'outside';
  /** For an unlisted module: the scanned files whose imports lead to it (through barrels too), with the specifier each imports. */
  importedBy?: Array<{ file: string; specifier: string }>;
  /** Set when the file does not parse; nothing else is reliable then. */
  parseError?: { line: number; column: number; message: string };
  /** The file imports or requires an SDK module at all. */
  importsSdk: boolean;
  sdkToolCalls: SdkToolCall[];
  protectedToolCalls: ProtectedToolCall[];
  generatedImports: GeneratedModuleImport[];
  hostedMcpCalls: HostedMcpCall[];
  agentMcpServers: AgentMcpServers[];
  stickyApprovals: StickyApproval[];
  /** `setTracingDisabled(true)`, `tracingDisabled: true`, or `traceIncludeSensitiveData: false` appear. */
  disablesSensitiveTracing: boolean;
  suppressions: SuppressionComment[];
  /** Calls of other SDK tool factories (additive; rules for hosted, shell and MCP doors read them). */
  sdkFactoryCalls?: SdkFactoryCall[];
  /** Tool factories reached in ways that cannot be followed (fail closed). */
  opaqueFactoryUses?: OpaqueFactoryUse[];
  objectLiteralTools?: ObjectLiteralTool[];
  /** Local doors and hosted MCP tools written as object literals (additive). */
  literalDoors?: LiteralDoor[];
  invokeReplacements?: InvokeReplacement[];
  sdkApprovals?: SdkApproval[];
  /** `import('m')` calls whose literal specifier leads to the SDK (a Deno pin may be in it). */
  dynamicImports?: Array<{ module: string; span: Span }>;
  /** Every top-level import / require statement (additive; the codemod edits import lines with it). */
  moduleImports?: ModuleImport[];
  /** Calls of the generated module's door functions (additive). */
  generatedDoorCalls?: GeneratedDoorCall[];
  /** Every place MCP servers reach an agent, with each server's protection (additive). */
  mcpServerLists?: McpServerList[];
  mcpErrorFunctions?: McpErrorFunction[];
  /** Properties of protected doors written after they were made (additive). */
  doorWrites?: DoorWrite[];
  /** Door writes on imported bindings, for the repo scan to settle (file/door-exports.ts). */
  importedWrites?: ImportedWrite[];
  /** The doors the file exports, by exported name (file/door-exports.ts). */
  exportedDoors?: Record<string, string>;
  /**
   * The doors made inside the lists and objects of the file's top-level values (`export const tools =
   * [protectShellTool(…)]`): each door by where its expression starts (`at`), and the names of the
   * variables holding one (`holders`, `default` for the default export) (file/held-doors.ts).
   */
  heldDoors?: { at: Record<string, string>; holders: string[] };
  /**
   * The imports an agent's `tools` names (`tools: [shell]`, `agent.tools.push(shell)`), and those it
   * calls (`tools: makeTools()`, `call`), and the members read on one (`tools: [kit.shell]`,
   * `members`): the repo scan reads those exports in a module check does
   * not otherwise read them in (file/agent-tool-exports.ts).
   */
  agentToolImports?: Array<{ specifier: string; name: string; call?: true; members?: string[] }>;
  /** The exports whose value check cannot tell (a factory of another module's result): a door's part written on one is reported fail closed. */
  unknownExports?: string[];
  agentAsToolCalls?: AgentAsToolCall[];
  /** `new SandboxAgent(...)` sites (additive). */
  sandboxAgents?: SandboxAgentSite[];
  /** Handoffs: SDK `handoff()` calls, agents in `handoffs`, `protectHandoff()` calls (additive). */
  handoffs?: HandoffSite[];
  /** Runs of agents, with the context each is given (additive). */
  runCalls?: RunCall[];
  /**
   * What code adds to some agent's `tools`, `handoffs` or `mcpServers` after it is made, through a
   * receiver the scan does not follow (`this.agent.tools.push(refund)`): every run may reach it.
   */
  looseParts?: ReachValue[];
  /** `createControl({ identity })` calls, with what the identity reads (additive). */
  identityReads?: IdentityRead[];
  realtimeSessions?: RealtimeSessionSite[];
  realtimeApprovalHandlers?: RealtimeApprovalHandler[];
  /** `commonjs` when the file uses top-level `require` and no ESM import/export, or is `.cts`/`.cjs`. */
  moduleSyntax?: 'esm' | 'commonjs';
}

/** What a run is given as its context: nothing, an object literal's keys, or what check cannot read. */
export type ContextShape = { kind: 'none' } | { kind: 'keys'; keys: string[]; span: Span } | { kind: 'opaque' };

/** A run of an agent: `run()` of the SDK or of ctrlrun-gen/runtime, `runner.run()` of an SDK Runner. */
export interface RunCall {
  kind: 'run';
  span: Span;
  callee: Span;
  via: 'sdk-run' | 'runner' | 'ctrlrun-run';
  /** The agent argument's text, when short. */
  agent?: string;
  /** The input is a RunState: a resumed run keeps the context it was started with. */
  resumes: boolean;
  /**
   * The input is a call of an imported function handed a RunState at `index`
   * (`decodeInterruptResponses(answers, state)`): the repo scan sets `resumes` when the function is
   * declared to give that state back (src/scan/state-signatures.ts). `from`: the importing file (absolute).
   */
  resumeThrough?: { from: string; specifier: string; name: string; index: number };
  context: ContextShape;
  /** What the agent argument is, symbolically (src/scan/reach/convert.ts); imports are followed across files by the repo scan. */
  agentValue?: ReachValue;
  /**
   * The doors the agent reaches (src/scan/reach/evaluate.ts): within the file by a file's scan, across
   * the repo's files by a repo scan; absent: not followed.
   */
  reach?: AgentReach;
}

/**
 * A door a run's agent can call, as the code shows it (issue 40, item 3). Whether it is protected
 * is decided against the manifest (src/scan/context-runs.ts, one reader per door kind): a new door
 * kind (a sandbox capability) adds its leaf here and its reader there.
 */
export type DoorLeaf =
  /** A function tool by its SDK name (`tool()`, an agent tool, `shellTool()` …); no `name`: computed where `site` is. */
  | { door: 'tool'; name?: string; site?: { file: string; line: number; container?: string } }
  /** A call of the generated module (`protectedTool`, `protectHostedMcp`, …): protected. */
  | { door: 'protected'; via: string }
  /** `hostedMcpTool()`: its server labels when the code shows them. */
  | { door: 'hosted_mcp'; labels?: string[] }
  /** An MCP server of `mcpServers`, by its `name` when written. */
  | { door: 'mcp'; server?: string };

/**
 * What an expression is, as far as the doors it reaches go: a small symbolic value, computed per
 * file and evaluated across files (src/scan/reach/). Imports keep their specifier and the absolute
 * path of the file they are written in, so any file's value can be evaluated anywhere.
 */
export type ReachValue =
  | { k: 'door'; leaf: DoorLeaf }
  /** Proven to reach no door (a literal, a hosted tool that runs at OpenAI). */
  | { k: 'none' }
  | { k: 'all'; of: ReachValue[] }
  | { k: 'unknown'; why: string }
  | { k: 'import'; from: string; specifier: string; name: string }
  | { k: 'member'; of: ReachValue; name?: string }
  | { k: 'call'; of: ReachValue }
  | { k: 'fn'; returns: ReachValue }
  | { k: 'obj'; props: Record<string, ReachValue> }
  /** What the other files that import the function `fn` of `from` pass as its `index`th argument. */
  | { k: 'callers'; from: string; fn: string; index: number };

/**
 * The doors a run's agent reaches: `unknown` (with why) when the code does not show them all (a
 * parameter, a factory of another package); then the run is taken to reach a protected one.
 */
export type AgentReach = { kind: 'unknown'; why: string; leaves: DoorLeaf[]; hostedMcp?: boolean } | { kind: 'tools'; leaves: DoorLeaf[]; hostedMcp?: boolean };

/** `createControl({ identity })`: the keys of `runContext.context` the identity reads. */
export interface IdentityRead {
  kind: 'identity';
  span: Span;
  /** `none`: the identity needs no context; `opaque`: check cannot tell what it reads. */
  reads: { kind: 'none' } | { kind: 'keys'; keys: string[] } | { kind: 'opaque' };
}

/** `new RealtimeSession(...)` of the SDK. */
export interface RealtimeSessionSite {
  kind: 'realtime-session';
  span: Span;
}

/** `session.on('tool_approval_requested', handler)`, and whether the handler answers the request. */
export interface RealtimeApprovalHandler {
  kind: 'realtime-approval-handler';
  span: Span;
  answers: 'yes' | 'no' | 'unknown';
}

/** A file or directory that could not be read or decoded: never silently skipped. */
export interface UnreadablePath {
  /** Relative to the scan root, forward slashes. */
  file: string;
  message: string;
}

export interface RepoScan {
  root: string;
  /** Files and directories that could not be read or decoded. */
  unreadable?: UnreadablePath[];
  /** Every file considered (after ignore rules), relative, sorted. */
  filesConsidered: number;
  /** Files that passed the text prefilter and were parsed: the app's, test files left out. */
  files: FileScan[];
  /**
   * Test files (test-files.ts) that were parsed, not named one by one: scanned so that a caller can
   * say what it left alone, never checked, rewritten or mapped.
   */
  testFiles?: FileScan[];
}
