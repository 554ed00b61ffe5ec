/**
 * The SDK's tool-name sanitizer (`toFunctionToolName`): whitespace and non-alphanumerics become `_`.
 * A module of its own, with no imports: `check` and the manifest loader use it without loading the
 * rest of the runtime's internals (the signing code and its curve library: start-up, issue 10).
 */
export function sdkToolName(name: string): string {
  return name.replace(/\s/g, '_').replace(/[^a-zA-Z0-9]/g, '_');
}

/**
 * The SDK tool name the manifest maps to `action` (the first, in manifest order), or null: what the
 * decision log and the traces name a call's tool. (`tools`: the compiled policy's, typed here by
 * shape so this module keeps no imports.)
 */
export function toolOf(policy: { readonly tools?: Readonly<Record<string, string>> }, action: string): string | null {
  for (const [tool, mapped] of Object.entries(policy.tools ?? {})) if (mapped === action) return tool;
  return null;
}
