/**
 * The SDK's tool-name sanitizer (`toFunctionToolName`): whitespace and non-alphanumerics become `_`.
 * A module of its own, with no imports: `check` and the manifest loader use it without loading the
 * rest of the runtime's internals (the signing code and its curve library: start-up, issue 10).
 */
export function sdkToolName(name: string): string {
  return name.replace(/\s/g, '_').replace(/[^a-zA-Z0-9]/g, '_');
}
