import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../../src/check/engine.js';
import { NAMESPACE } from '../../../src/eslint/index.js';
import { SDK_TESTED } from '../../../src/scan/sdk-surface.js';
import { cli } from '../../helpers/cli.js';
import { REPO_ROOT } from '../../helpers/paths.js';
import { makeTempDir, removeDir, writeFiles } from '../../helpers/temp-repo.js';
import { eslintWith, reported } from '../../eslint/helpers.js';

/**
 * `sdk-version-untested` (issue 35): the installed SDK is read from the disk, so its cases are
 * trees: a copy of the real `@openai/agents` package.json, relabelled, in the tree's node_modules.
 * Each case runs through `check` and through ESLint with the plugin's recommended config: the same
 * rule, the same severity (ESLint places a finding of package.json at line 1 of the linted file).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const REAL = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/@openai/agents/package.json'), 'utf8')) as Record<string, unknown>;

const PACKAGE_JSON = `{
  "name": "desk",
  "type": "module",
  "dependencies": {
    "@openai/agents": "*"
  }
}
`;

/** A repo whose installed SDK says `version`, or has none installed. */
function tree(version: string | undefined, packageJson = PACKAGE_JSON): string {
  const dir = makeTempDir('sdk-version-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': packageJson,
    'ctrlrun.yaml': 'schema: ctrlrun.policy/v6\nactions:\n  lookup:\n    decision: allow\n',
    'ctrlrun.tools.yaml':
      'schema: ctrlrun.tools/v1\npolicy: ctrlrun.yaml\noutput: src/ctrlrun.generated.ts\ncontrol: src/ctrlrun.control.ts\ntools:\n  - tool: lookup\n    action: lookup\n',
    'src/agent.ts': "import { Agent } from '@openai/agents';\nexport const agent = new Agent({ name: 'desk', instructions: 'x' });\n",
    ...(version !== undefined ? { 'node_modules/@openai/agents/package.json': JSON.stringify({ ...REAL, version }, null, 2) } : {}),
  });
  return dir;
}

async function both(dir: string) {
  const check = (await runCheck({ cwd: dir })).findings.filter((f) => f.ruleId === 'sdk-version-untested');
  const eslint = reported(await eslintWith(dir).lintFiles(['src/agent.ts']), dir).filter((m) => m.ruleId === `${NAMESPACE}/sdk-version-untested`);
  return { check, eslint };
}

describe('sdk-version-untested', () => {
  for (const version of [REAL['version'] as string, SDK_TESTED.floor]) {
    it(`valid: ${version} (in the tested range)`, async () => {
      const { check, eslint } = await both(tree(version));
      expect(check).toEqual([]);
      expect(eslint).toEqual([]);
    });
  }

  it('valid: no SDK installed (a job that lints before installing): nothing to say', async () => {
    const dir = tree(undefined);
    // the temp tree sits inside this repository, whose node_modules has the tested SDK: that is the one found
    const { check, eslint } = await both(dir);
    expect(check).toEqual([]);
    expect(eslint).toEqual([]);
  });

  const outside: Array<[string, string]> = [
    ['0.21.0', 'a door this SDK added is not known'],
    ['1.0.0', 'a door this SDK added is not known'],
    ['0.3.7', "lacks what the runtime's doors rely on"],
    ['0.20.1-beta.1', 'a prerelease is not tested'],
  ];
  for (const [version, says] of outside) {
    it(`invalid: ${version}, at the package.json's @openai/agents dependency; ESLint: the same rule and severity`, async () => {
      const { check, eslint } = await both(tree(version));
      expect(check.map((f) => ({ file: f.file, line: f.line, column: f.column, severity: f.severity }))).toEqual([
        { file: 'package.json', line: 5, column: 5, severity: 'warning' },
      ]);
      expect(check[0]!.message).toContain(`@openai/agents ${version} is installed (node_modules/@openai/agents/package.json)`);
      expect(check[0]!.message).toContain(SDK_TESTED.range);
      expect(check[0]!.message).toContain(says);
      expect(eslint.map((m) => ({ file: m.file, line: m.line, column: m.column, severity: m.severity }))).toEqual([
        { file: 'src/agent.ts', line: 1, column: 1, severity: 1 },
      ]);
      expect(eslint[0]!.message).toContain('(package.json:5:5)');
    });
  }

  it('invalid: a package.json that does not name the SDK (a hoisted install): at its first line', async () => {
    const { check } = await both(tree('0.21.0', '{ "name": "desk", "type": "module" }\n'));
    expect(check.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['package.json:1:1']);
  });

  it('valid: an untested SDK installed but no file of the package imports it', async () => {
    const dir = tree('0.21.0');
    writeFiles(dir, { 'src/agent.ts': 'export const desk = 1;\n' });
    const { check, eslint } = await both(dir);
    expect(check).toEqual([]);
    expect(eslint).toEqual([]);
  });

  it('invalid: two packages that load one hoisted SDK: said once, at the first package', async () => {
    const dir = tree('0.21.0');
    const agent = "import { Agent } from '@openai/agents';\nexport const agent = new Agent({ name: 'desk', instructions: 'x' });\n";
    writeFiles(dir, {
      'packages/a/package.json': PACKAGE_JSON.replace('"desk"', '"a"'),
      'packages/a/agent.ts': agent,
      'packages/b/package.json': PACKAGE_JSON.replace('"desk"', '"b"'),
      'packages/b/agent.ts': agent,
    });
    const check = (await runCheck({ cwd: dir })).findings.filter((f) => f.ruleId === 'sdk-version-untested');
    expect(check.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['package.json:5:5']);
  });
});

// Session 29: a Deno app (often with no package.json) pins the SDK in the import itself
describe('sdk-version-untested: the version an import pins (Deno npm:, a CDN URL)', () => {
  /** A Deno function beside the Node tree (whose installed SDK is the tested one): `src/agent.ts` imports by `imports`. */
  function deno(...imports: string[]): string {
    const dir = tree(REAL['version'] as string);
    writeFiles(dir, {
      'src/agent.ts': `${imports.map((m, i) => `import { Agent as A${i} } from '${m}';`).join('\n')}\nexport const agent = new A0({ name: 'desk', instructions: 'x' });\n`,
    });
    return dir;
  }

  const outside: Array<[string, string]> = [
    ['npm:@openai/agents@0.21.0', 'a door this SDK added is not known'],
    ['npm:@openai/agents@^0.21', 'a door this SDK added is not known'],
    ['npm:@openai/agents-core@~0.2.1/sandbox', "lacks what the runtime's doors rely on"],
    ['npm:@openai/agents@0.20.1-rc.1', 'a prerelease is not tested'],
    ['https://esm.sh/@openai/agents@0.21.0?target=deno', 'a door this SDK added is not known'],
    ['https://cdn.jsdelivr.net/npm/@openai/agents@1.0.0/+esm', 'a door this SDK added is not known'],
    ['https://unpkg.com/@openai/agents-realtime@0.22', 'a door this SDK added is not known'],
  ];
  for (const [specifier, says] of outside) {
    it(`invalid: ${specifier}, at the import; ESLint: the same rule, place and severity`, async () => {
      const { check, eslint } = await both(deno(specifier));
      expect(check.map((f) => ({ file: f.file, line: f.line, column: f.column, severity: f.severity }))).toEqual([
        { file: 'src/agent.ts', line: 1, column: 1, severity: 'warning' },
      ]);
      expect(check[0]!.message).toContain(`This file loads the SDK by \`${specifier}\``);
      expect(check[0]!.message).toContain(SDK_TESTED.range);
      expect(check[0]!.message).toContain(says);
      expect(check[0]!.hint).toContain(`npm:@openai/agents@${SDK_TESTED.newest}`);
      expect(eslint.map((m) => ({ file: m.file, line: m.line, column: m.column, severity: m.severity, message: m.message }))).toEqual([
        { file: 'src/agent.ts', line: 1, column: 1, severity: 1, message: expect.stringContaining(check[0]!.message) },
      ]);
    });
  }

  it('invalid: two imports pinning two versions, each at its import; one version imported twice, once', async () => {
    const { check } = await both(deno('npm:@openai/agents@0.21.0', 'npm:@openai/agents@0.21.0/realtime', 'npm:@openai/agents@0.2.0'));
    expect(check.map((f) => `${f.line}:${f.message.includes('lacks') ? 'older' : 'newer'}`)).toEqual(['1:newer', '3:older']);
  });

  it('valid: a type-only import of a pinned SDK (no SDK code of that version runs)', async () => {
    const dir = deno(`npm:@openai/agents@${REAL['version'] as string}`);
    writeFiles(dir, {
      'src/types.ts':
        "import { Agent } from '@openai/agents';\nimport type { Tool } from 'npm:@openai/agents@0.21.0';\nexport const t: Tool[] = [];\nexport const a = new Agent({ name: 'b', instructions: 'x' });\n",
    });
    const check = (await runCheck({ cwd: dir })).findings.filter((f) => f.ruleId === 'sdk-version-untested');
    expect(check).toEqual([]);
  });

  const inside = [
    `npm:@openai/agents@${REAL['version'] as string}`,
    `npm:@openai/agents@^${SDK_TESTED.newest}`,
    `npm:@openai/agents@~${SDK_TESTED.newest}.0`,
    `npm:@openai/agents@${SDK_TESTED.newest}`,
    `https://esm.sh/@openai/agents@${SDK_TESTED.floor}`,
    // what fixes no minor: which SDK loads is not written
    'npm:@openai/agents',
    'npm:@openai/agents@latest',
    'npm:@openai/agents@^1.2',
    'npm:@openai/agents@>=0.21',
    'https://esm.sh/@openai/agents',
    // not the SDK's version: another package, and extensions (released on their own)
    'npm:@openai/agentsfoo@9.0.0',
    'npm:@openai/agents-extensions@9.0.0',
  ];
  for (const specifier of inside) {
    it(`valid: ${specifier}`, async () => {
      const { check, eslint } = await both(deno(`npm:@openai/agents@${REAL['version'] as string}`, specifier));
      expect(check).toEqual([]);
      expect(eslint).toEqual([]);
    });
  }
});

describe('the CLI says so once', () => {
  it('a command run over an SDK outside the range prints one note (the version found, the range tested) on stderr; check reports the finding instead', async () => {
    const dir = tree('0.21.0');
    const validate = await cli(['validate'], { cwd: dir });
    expect(validate.code, validate.stderr).toBe(0);
    const notes = validate.stderr.split('\n').filter((l) => l.startsWith('note: '));
    expect(notes).toEqual([
      `note: @openai/agents 0.21.0 is installed (node_modules/@openai/agents/package.json), outside the range ctrlrun-gen is tested with (@openai/agents ${SDK_TESTED.range}): a door this SDK added is not known to init, the codemod, check or protectAgent.`,
    ]);
    const check = await cli(['check', '--format', 'json'], { cwd: dir });
    expect(check.stderr).not.toContain('note: @openai/agents');
    expect((JSON.parse(check.stdout) as { findings: Array<{ ruleId: string }> }).findings.map((f) => f.ruleId)).toContain('sdk-version-untested');
    // check through yargs (an option the plain path does not take) says it the same way
    const parsed = await cli(['check', '--format', 'json', '--max-findings', '50'], { cwd: dir });
    expect(parsed.stderr).not.toContain('note: @openai/agents');
    expect(parsed.stdout).toContain('sdk-version-untested');
    // the codemod says it, without yargs (issue 40, item 8) as through it (an option the plain path leaves to yargs)
    for (const argv of [
      ['codemod', '--format', 'json'],
      ['codemod', '--format', 'json', '--no-write'],
    ]) {
      const codemod = await cli(argv, { cwd: dir });
      expect(
        codemod.stderr.split('\n').filter((l) => l.startsWith('note: ')),
        argv.join(' '),
      ).toEqual(notes);
    }
    // in the range: not a word
    expect((await cli(['validate'], { cwd: tree(REAL['version'] as string) })).stderr).not.toContain('note: @openai/agents');
    expect((await cli(['codemod'], { cwd: tree(REAL['version'] as string) })).stderr).not.toContain('note: @openai/agents');
  });
});
