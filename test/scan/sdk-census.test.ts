import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_IDS } from '../../src/check/meta.js';
import { GENERATED_DOORS } from '../../src/scan/file/context.js';
import { classifyExport, exportsReportedBy, SDK_DOORS, SDK_LINT_ONLY, SDK_NOT_DOORS, SDK_TESTED } from '../../src/scan/sdk-surface.js';
import { lintSource } from '../check/rule-tester.js';
import { censusOf } from '../helpers/sdk-census.js';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * The census (issue 35, SPEC §5.12): the installed SDK's every function and class, from every
 * subpath of the four packages' `exports` maps, against src/scan/sdk-surface.ts. `.ci/sdk-range`
 * runs this file against each minor of the peer range (CTRLRUN_SDK_DIR names that SDK); alone it
 * runs against devDependencies' SDK, the newest of the range.
 */
const fromRange = process.env['CTRLRUN_SDK_DIR'];
const sdkDir = fromRange ?? path.join(REPO_ROOT, 'node_modules/@openai/agents');
const installed = await censusOf(sdkDir);
const label = `@openai/agents ${installed.versions['@openai/agents']}`;

/** Every name the census lists, with where (a name listed twice is a census error). */
function listed(): Array<[string, string]> {
  return [
    ...Object.keys(SDK_DOORS).map((n): [string, string] => [n, 'SDK_DOORS']),
    ...Object.keys(SDK_LINT_ONLY).map((n): [string, string] => [n, 'SDK_LINT_ONLY']),
    ...Object.entries(SDK_NOT_DOORS).flatMap(([group, g]) => g.members.map((n): [string, string] => [n, `SDK_NOT_DOORS.${group}`])),
  ];
}

describe(`the census of ${label}`, () => {
  it('loads every subpath of the four packages (an entry that cannot be inspected cannot be classified)', () => {
    expect(installed.failed).toEqual({});
    expect(Object.keys(installed.versions).sort()).toEqual(['@openai/agents', '@openai/agents-core', '@openai/agents-openai', '@openai/agents-realtime']);
    expect(installed.exports.size).toBeGreaterThan(100);
  });

  it('classifies every exported function and class: a protected door, lint-only, or not a door (and why)', () => {
    const unclassified = [...installed.exports.values()]
      .filter((e) => classifyExport(e.name) === undefined)
      .map((e) => `${e.name} (${e.kind}, from ${e.entries.join(', ')})`);
    expect(
      unclassified,
      `classify each in src/scan/sdk-surface.ts: does it give a model something to invoke? (a door and its adapter, lint-only and its rule, or the group of not-a-door that says why)`,
    ).toEqual([]);
  });

  it('lists each name once', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [name, where] of listed()) {
      if (seen.has(name)) twice.push(`${name}: ${seen.get(name)} and ${where}`);
      seen.set(name, where);
    }
    expect(twice).toEqual([]);
  });

  it('every `errors` member is an Error class, and every Error class is in `errors`', () => {
    const errors = new Set(SDK_NOT_DOORS['errors']!.members);
    const kinds = [...installed.exports.values()];
    expect(kinds.filter((e) => errors.has(e.name) && e.kind !== 'error-class').map((e) => e.name)).toEqual([]);
    expect(kinds.filter((e) => e.kind === 'error-class' && !errors.has(e.name)).map((e) => e.name)).toEqual([]);
  });

  it.runIf(fromRange === undefined)('names nothing the newest SDK of the range does not export (no stale entry)', () => {
    expect(listed().filter(([name]) => !installed.exports.has(name))).toEqual([]);
  });
});

describe('the census as the product reads it', () => {
  it("a door's adapters are exports of the generated module, and its rule is one of check's", () => {
    const adapters = new Set([...GENERATED_DOORS, 'protectedTool']);
    for (const [name, door] of Object.entries(SDK_DOORS)) {
      expect(door.by.length, name).toBeGreaterThan(0);
      for (const by of door.by) expect(adapters.has(by), `${name}: ${by}`).toBe(true);
      expect(RULE_IDS, name).toContain(door.rule);
    }
    for (const [name, lint] of Object.entries(SDK_LINT_ONLY)) expect(RULE_IDS, name).toContain(lint.rule);
  });

  it('the rules that read their lists from the census report a call of each export they are given', () => {
    for (const rule of ['hosted-tool-ungated', 'unprotected-door', 'mcp-function-tool']) {
      const names = exportsReportedBy(rule);
      expect(names.length, rule).toBeGreaterThan(0);
      for (const name of names) {
        const code = `import { ${name} } from '@openai/agents';\nexport const t = ${name}({});\n`;
        expect(
          lintSource(code, { ruleId: rule }).map((f) => f.line),
          `${rule}: ${name}`,
        ).toEqual([2]);
      }
    }
  });

  it('the tested range is the peer range of package.json, and .ci/sdk-range tests its floor and its newest minor', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> };
    expect(SDK_TESTED.range).toBe(pkg.peerDependencies['@openai/agents']);
    const [major, minor] = SDK_TESTED.newest.split('.').map(Number);
    expect(SDK_TESTED.range).toBe(`>=${SDK_TESTED.floor} <${major}.${minor! + 1}.0`);
    const script = readFileSync(path.join(REPO_ROOT, '.ci/sdk-range'), 'utf8');
    const versions = /^VERSIONS=\(([^)]*)\)/m.exec(script)?.[1]?.trim().split(/\s+/) ?? [];
    expect(versions[0]).toBe(SDK_TESTED.floor);
    expect(versions.at(-1)).toBe(SDK_TESTED.newest);
    // and the range run takes the census at each of them
    expect(/^TESTS=.*test\/scan\/sdk-census\.test\.ts/m.test(script)).toBe(true);
  });
});
