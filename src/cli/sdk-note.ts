import { displayPath } from '../format-diagnostics.js';
import { findInstalledSdk, sdkVerdict, untestedSdkMessage } from '../scan/sdk-version.js';
import type { CliContext } from './context.js';

/**
 * Said once, on stderr, before a command runs where the `@openai/agents` Node would load is outside
 * the range this release is tested with (issue 35): nothing else would say that a newer SDK's new
 * door is unknown here. `check` reports it as a finding (`sdk-version-untested`) instead. Silent when
 * no SDK is installed, or it is one of the range.
 */
export function sayUntestedSdk(ctx: Pick<CliContext, 'cwd' | 'stderr'>): void {
  const sdk = findInstalledSdk(ctx.cwd);
  if (!sdk) return;
  const verdict = sdkVerdict(sdk.version);
  if (verdict === 'tested') return;
  ctx.stderr(`note: ${untestedSdkMessage(sdk, verdict, displayPath(sdk.packageJson, ctx.cwd))}\n`);
}
