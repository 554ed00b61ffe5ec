import type { SdkToolCall } from '../../scan/types.js';
import type { ProjectContext } from '../types.js';

/*
 * `unprotected-tool` and `unmapped-tool` share one decision: exactly one of them for each SDK
 * `tool()` call.
 * - name is a literal mapped in the manifest → `unprotected-tool` (the codemod fixes it);
 * - name is a literal not mapped → `unmapped-tool` (the hint is the manifest entry to add);
 * - name is not a literal (or the manifest did not load) → `unprotected-tool`.
 */

/** The manifest's function tool entry for the call's name. */
export function mappedEntry(call: SdkToolCall, project: ProjectContext): { action: string } | undefined {
  return project.manifest.tools.find((t) => t.kind === 'function' && t.tool === call.name);
}

/** Whether the call is `unmapped-tool`'s (a literal name the loaded manifest does not map), not `unprotected-tool`'s. */
export function isUnmappedCall(call: SdkToolCall, project: ProjectContext | undefined): boolean {
  return call.name !== undefined && project !== undefined && mappedEntry(call, project) === undefined;
}
