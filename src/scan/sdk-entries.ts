/**
 * The SDK entry points: every specifier of the installed `@openai/agents*` packages that exports a
 * tool factory, an Agent class or a namespace of another entry. Derived from the packages'
 * `exports` maps by loading each entry (test/helpers/sdk-derive.ts); do not edit by hand:
 * `UPDATE_SDK_ENTRIES=1 npx vitest run test/scan/sdk-entries` rewrites it, and that test fails
 * when the installed SDK has an entry this table lacks.
 * Derived from: @openai/agents@0.20.0, @openai/agents-core@0.20.0, @openai/agents-openai@0.20.0, @openai/agents-realtime@0.20.0.
 */

export interface SdkEntry {
  /** The import specifier (`@openai/agents/realtime`). */
  specifier: string;
  /** Exported tool factories (`tool`, `hostedMcpTool`, `shellTool`, ...). */
  factories: readonly string[];
  /** Exported Agent classes (`Agent`, `RealtimeAgent`). */
  agentClasses: readonly string[];
  /** Exports that are another entry's namespace (`realtime` → `@openai/agents-realtime`). */
  namespaces: Readonly<Record<string, string>>;
}

export const SDK_ENTRIES: readonly SdkEntry[] = [
  {
    specifier: "@openai/agents",
    factories: ["applyPatchTool","codeInterpreterTool","computerTool","fileSearchTool","hostedMcpTool","imageGenerationTool","mcpToFunctionTool","programmaticToolCallingTool","shellTool","tool","toolSearchTool","webSearchTool"],
    agentClasses: ["Agent"],
    namespaces: {"realtime":"@openai/agents/realtime"},
  },
  {
    specifier: "@openai/agents-core",
    factories: ["applyPatchTool","computerTool","hostedMcpTool","mcpToFunctionTool","shellTool","tool"],
    agentClasses: ["Agent"],
    namespaces: {},
  },
  {
    specifier: "@openai/agents-core/sandbox",
    factories: [],
    agentClasses: ["SandboxAgent"],
    namespaces: {},
  },
  {
    specifier: "@openai/agents-core/sandbox/local",
    factories: [],
    agentClasses: ["SandboxAgent"],
    namespaces: {},
  },
  {
    specifier: "@openai/agents-openai",
    factories: ["codeInterpreterTool","fileSearchTool","imageGenerationTool","programmaticToolCallingTool","toolSearchTool","webSearchTool"],
    agentClasses: [],
    namespaces: {},
  },
  {
    specifier: "@openai/agents-realtime",
    factories: ["tool"],
    agentClasses: ["RealtimeAgent"],
    namespaces: {},
  },
  {
    specifier: "@openai/agents/realtime",
    factories: ["tool"],
    agentClasses: ["RealtimeAgent"],
    namespaces: {},
  },
  {
    specifier: "@openai/agents/sandbox",
    factories: [],
    agentClasses: ["SandboxAgent"],
    namespaces: {},
  },
  {
    specifier: "@openai/agents/sandbox/local",
    factories: [],
    agentClasses: ["SandboxAgent"],
    namespaces: {},
  },
];
