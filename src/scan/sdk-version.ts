import { existsSync } from 'node:fs';
import path from 'node:path';
import { readRegularText } from '../safe-read.js';
import { SDK_TESTED } from './sdk-surface.js';

/**
 * The installed `@openai/agents` and whether this release was tested with it (issue 35): a newer
 * SDK can add a door (0.9 added sandboxes, 0.6 tool search) that the census, the scanner and the
 * runtime do not know, so every command says so, and `check` reports it (`sdk-version-untested`).
 */

export interface InstalledSdk {
  version: string;
  /** Absolute path of its package.json. */
  packageJson: string;
}

/** What a version is to the tested range: inside it, or outside and how. */
export type SdkVerdict = 'tested' | 'newer' | 'older' | 'prerelease' | 'unreadable';

/** The disk, as the lookup reads it (the check rule passes its change-tracking reads). */
export interface SdkLookupIo {
  exists: (file: string) => boolean;
  read: (file: string) => string;
}

// a package.json that is a FIFO is unreadable (no version), never waited on (issue 40 item 1)
const DISK: SdkLookupIo = { exists: existsSync, read: readRegularText };

/**
 * The `@openai/agents` Node would load from `fromDir`: its `node_modules`, then each folder above.
 * Undefined when none is installed (a CI job that lints before installing: nothing to say) or its
 * package.json has no version string.
 */
export function findInstalledSdk(fromDir: string, io: SdkLookupIo = DISK): InstalledSdk | undefined {
  for (let dir = path.resolve(fromDir); ; dir = path.dirname(dir)) {
    const packageJson = path.join(dir, 'node_modules', '@openai', 'agents', 'package.json');
    if (io.exists(packageJson)) {
      try {
        const version = (JSON.parse(io.read(packageJson)) as { version?: unknown }).version;
        return { version: typeof version === 'string' ? version : '', packageJson };
      } catch {
        return { version: '', packageJson };
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** `[major, minor, patch]` of a version string, and whether it is a prerelease; undefined when it is not semver. */
function parse(version: string): { parts: [number, number, number]; prerelease: boolean } | undefined {
  const m = SEMVER.exec(version.trim());
  if (!m) return undefined;
  return { parts: [Number(m[1]), Number(m[2]), Number(m[3])], prerelease: m[4] !== undefined };
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Inside the tested range: from the floor (`0.3.8`) to the newest minor tested (`0.20.x`), releases
 * only. A prerelease is outside even within those bounds: no run of `.ci/sdk-range` tested it.
 */
export function sdkVerdict(version: string): SdkVerdict {
  const v = parse(version);
  if (!v) return 'unreadable';
  const floor = parse(SDK_TESTED.floor)!.parts;
  const newest = SDK_TESTED.newest.split('.').map(Number);
  if (compare(v.parts.slice(0, 2), newest) > 0) return 'newer';
  if (compare(v.parts, floor) < 0) return 'older';
  return v.prerelease ? 'prerelease' : 'tested';
}

/** One sentence: the SDK found, the range tested, what it means. */
export function untestedSdkMessage(sdk: InstalledSdk, verdict: Exclude<SdkVerdict, 'tested'>, where: string): string {
  const found = sdk.version === '' ? 'an @openai/agents with no readable version' : `@openai/agents ${sdk.version}`;
  const why =
    verdict === 'newer'
      ? 'a door this SDK added is not known to init, the codemod, check or protectAgent'
      : verdict === 'older'
        ? "this SDK lacks what the runtime's doors rely on"
        : verdict === 'prerelease'
          ? 'a prerelease is not tested, and may add a door this release does not know'
          : 'its version cannot be compared with the range';
  return `${found} is installed (${where}), outside the range ctrlrun-gen is tested with (@openai/agents ${SDK_TESTED.range}): ${why}.`;
}

/** What to do about it. */
export const UNTESTED_SDK_HINT = `Install an @openai/agents in ${SDK_TESTED.range}, or a ctrlrun-gen release that tests this SDK (its census classifies every export of the SDKs it supports; docs/sdk.md).`;
