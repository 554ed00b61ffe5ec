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

/**
 * What a version pinned in an import (`npm:@openai/agents@0.19.0`, a CDN URL's `@^0.20`) is to the
 * tested range. An exact version is judged as an installed one. A range that fixes the minor
 * (`0.19`, `~0.19.2`, `^0.19.1`: a caret on a 0.x version keeps its minor) loads the newest patch
 * of that minor, so it is judged by the minor. Undefined for what fixes no minor (`latest`, `^1.2`,
 * `*`, `>=0.19`): which SDK loads is not written, and the rule says nothing it cannot know.
 */
export function pinnedSdkVerdict(pinned: string): SdkVerdict | undefined {
  const text = pinned.trim().replace(/^=?v?/, '');
  if (SEMVER.test(text)) return sdkVerdict(text);
  const m = /^(?<op>[~^]?)v?(?<major>\d+)\.(?<minor>\d+)(?:\.(?:\d+|[xX*]))?$/.exec(text);
  if (!m?.groups) return undefined;
  const [major, minor] = [Number(m.groups['major']), Number(m.groups['minor'])];
  if (m.groups['op'] === '^' && major !== 0) return undefined; // ^1.2 takes every later 1.x minor
  const floor = parse(SDK_TESTED.floor)!.parts;
  const newest = SDK_TESTED.newest.split('.').map(Number);
  if (compare([major, minor], newest) > 0) return 'newer';
  if (compare([major, minor], floor.slice(0, 2)) < 0) return 'older';
  return 'tested';
}

/** One sentence: the SDK found, the range tested, what it means. */
export function untestedSdkMessage(sdk: InstalledSdk, verdict: Exclude<SdkVerdict, 'tested'>, where: string): string {
  const found = sdk.version === '' ? 'an @openai/agents with no readable version' : `@openai/agents ${sdk.version}`;
  return `${found} is installed (${where}), outside the range ctrlrun-gen is tested with (@openai/agents ${SDK_TESTED.range}): ${untestedWhy(verdict)}.`;
}

/** One sentence: the import that pins the SDK (Deno's `npm:`, a CDN URL), the range tested, what it means. */
export function pinnedSdkMessage(specifier: string, verdict: Exclude<SdkVerdict, 'tested'>): string {
  return `This file loads the SDK by \`${specifier}\`, a version outside the range ctrlrun-gen is tested with (@openai/agents ${SDK_TESTED.range}): ${untestedWhy(verdict)}.`;
}

function untestedWhy(verdict: Exclude<SdkVerdict, 'tested'>): string {
  return verdict === 'newer'
    ? 'a door this SDK added is not known to init, the codemod, check or protectAgent'
    : verdict === 'older'
      ? "this SDK lacks what the runtime's doors rely on"
      : verdict === 'prerelease'
        ? 'a prerelease is not tested, and may add a door this release does not know'
        : 'its version cannot be compared with the range';
}

/** What to do about a pinned one. */
export const PINNED_SDK_HINT = `Pin the import to an @openai/agents in ${SDK_TESTED.range} (in Deno, \`npm:@openai/agents@${SDK_TESTED.newest}\`, or the import map's entry), or use a ctrlrun-gen release that tests this SDK.`;

/** What to do about it. */
export const UNTESTED_SDK_HINT = `Install an @openai/agents in ${SDK_TESTED.range}, or a ctrlrun-gen release that tests this SDK (its census classifies every export of the SDKs it supports; docs/sdk.md).`;
