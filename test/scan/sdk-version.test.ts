import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SDK_TESTED } from '../../src/scan/sdk-surface.js';
import { findInstalledSdk, sdkVerdict } from '../../src/scan/sdk-version.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('sdkVerdict: the tested range (issue 35)', () => {
  it('is exactly the releases from the floor to the newest minor tested, against brute force over a small domain', () => {
    const [fMaj, fMin, fPat] = SDK_TESTED.floor.split('.').map(Number) as [number, number, number];
    const [nMaj, nMin] = SDK_TESTED.newest.split('.').map(Number) as [number, number];
    const key = (a: number, b: number, c: number) => a * 1e6 + b * 1e3 + c;
    for (let major = 0; major <= 1; major++) {
      for (let minor = 0; minor <= nMin + 3; minor++) {
        for (let patch = 0; patch <= 12; patch++) {
          const v = `${major}.${minor}.${patch}`;
          const inside = key(major, minor, patch) >= key(fMaj, fMin, fPat) && key(major, minor, 0) <= key(nMaj, nMin, 0);
          const expected = inside ? 'tested' : key(major, minor, patch) < key(fMaj, fMin, fPat) ? 'older' : 'newer';
          expect(sdkVerdict(v), v).toBe(expected);
          // a prerelease is never tested; build metadata changes nothing
          expect(sdkVerdict(`${v}-beta.1`), `${v}-beta.1`).toBe(inside ? 'prerelease' : expected);
          expect(sdkVerdict(`${v}+build.5`), `${v}+build.5`).toBe(expected);
        }
      }
    }
  });

  it('the installed SDK of devDependencies is tested; a version that is not semver is unreadable', () => {
    const installed = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/@openai/agents/package.json'), 'utf8')) as { version: string };
    expect(sdkVerdict(installed.version)).toBe('tested');
    for (const v of ['', 'latest', '0.20', '0.20.0.1', 'v0.20.0']) expect(sdkVerdict(v), v).toBe('unreadable');
  });
});

describe('findInstalledSdk', () => {
  it('finds the copy Node would load: the nearest node_modules upward', () => {
    const dir = makeTempDir('sdk-find-');
    dirs.push(dir);
    writeFiles(dir, {
      'node_modules/@openai/agents/package.json': JSON.stringify({ name: '@openai/agents', version: '0.21.0' }),
      'packages/app/node_modules/@openai/agents/package.json': JSON.stringify({ name: '@openai/agents', version: '0.3.7' }),
      'packages/app/src/.keep': '',
      'packages/other/src/.keep': '',
    });
    expect(findInstalledSdk(path.join(dir, 'packages/app/src'))?.version).toBe('0.3.7');
    expect(findInstalledSdk(path.join(dir, 'packages/other/src'))).toEqual({
      version: '0.21.0',
      packageJson: path.join(dir, 'node_modules/@openai/agents/package.json'),
    });
    writeFiles(dir, { 'packages/other/node_modules/@openai/agents/package.json': '{ not json' });
    expect(findInstalledSdk(path.join(dir, 'packages/other'))?.version).toBe('');
  });
});
