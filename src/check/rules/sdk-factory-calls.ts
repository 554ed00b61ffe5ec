import type { FileScan } from '../../scan/types.js';

/** A `shellTool({ environment, ... })` with no `shell`: a hosted (container) shell, run at OpenAI. */
export function isHostedShell(call: NonNullable<FileScan['sdkFactoryCalls']>[number]): boolean {
  const p = call.options.properties;
  return call.factory === 'shellTool' && !call.options.hasSpread && p.environment !== undefined && p.shell === undefined;
}
