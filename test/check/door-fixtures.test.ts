import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { renderGeneratedModule } from '../../src/generate/index.js';
import { loadProject } from '../../src/manifest/load.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

/**
 * Issue 10, one fixture per door class: `fixtures/check/doors/<case>/repo` (on top of `_shared`,
 * which brings the policy, the manifest and a valid file: the mapped tools protected) is linted
 * whole, with its generated module freshly generated, and every finding (`ruleId file:line`) must
 * be exactly those of `case.json`: the open door is found, the valid file is silent.
 * `UPDATE_DOOR_FIXTURES=1` rewrites `case.json` from the run (review the diff!).
 */
const ROOT = path.join(FIXTURES, 'check', 'doors');
const CASES = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort();

describe('check: a fixture per door class (issue 10)', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach(removeDir));

  it('has the door classes the issue lists', () => {
    expect(CASES).toEqual(
      expect.arrayContaining(['barrel', 'tsconfig-alias', 'realtime-entry', 'call-apply', 'object-literal-tool', 'invoke-replaced', 'utf16-file']),
    );
  });

  it.each(CASES)('%s', async (name) => {
    const dir = makeTempDir(`doors-${name}-`);
    dirs.push(dir);
    cpSync(path.join(ROOT, '_shared'), dir, { recursive: true });
    cpSync(path.join(ROOT, name, 'repo'), dir, { recursive: true });
    const generated = renderGeneratedModule(loadProject({ cwd: dir }));
    writeFileSync(generated.path, generated.text);

    const result = await runCheck({ cwd: dir });
    expect(result.configError).toBe(false);
    const found = result.findings.map((f) => `${f.ruleId} ${f.file}:${f.line}`);
    const caseFile = path.join(ROOT, name, 'case.json');
    if (process.env.UPDATE_DOOR_FIXTURES === '1') writeFileSync(caseFile, `${JSON.stringify({ findings: found }, null, 2)}\n`);
    expect(existsSync(caseFile), `${caseFile} is missing: run with UPDATE_DOOR_FIXTURES=1 and review it`).toBe(true);
    const expected = (JSON.parse(readFileSync(caseFile, 'utf8')) as { findings: string[] }).findings;
    expect(found).toEqual(expected);
    // Each case has an open door, and the shared valid file is never reported.
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((f) => f.includes('src/closed.ts'))).toEqual([]);
  });
});
