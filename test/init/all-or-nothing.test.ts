import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { CLI_BIN } from '../helpers/paths.js';
import { copyFixture, filesOf, makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

// Issue 21 item 9: init and codemod --write write every file or none (src/fs/write-all.ts), and
// refuse what would leave the app broken: a folder that is not a package, a rewrite whose imports
// would not resolve. A folder or file the CLI may not write is made so with chmod; root writes
// anything through CAP_DAC_OVERRIDE, so as root the CLI runs without it (the technique of
// test/cli/permissions.test.ts: setpriv drops the capability from the bounding set).

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const STACK = /^\s+at .*[(\s]\S+:\d+:\d+\)?$/m;

function withoutOverride(dir: string, args: string[]) {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root
    ? ['setpriv', ['--bounding-set', '-dac_override,-dac_read_search', '--inh-caps', '-all', process.execPath, CLI_BIN, ...args]]
    : [process.execPath, [CLI_BIN, ...args]];
  const r = spawnSync(cmd, argv as string[], { cwd: dir, env: { ...process.env, NO_COLOR: '1', HOME: dir }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** refund-desk as a user has it before init: the app, no ctrlrun files. */
function bareDesk(prefix: string): string {
  const dir = copyFixture('refund-desk', prefix);
  dirs.push(dir);
  for (const f of ['ctrlrun.yaml', 'ctrlrun.tools.yaml', 'src/ctrlrun.control.ts']) rmSync(path.join(dir, f));
  return dir;
}

describe('init writes all or nothing', () => {
  it('a folder it cannot write (src/ at 0555): exit 2 naming the file, nothing written anywhere; after the fix a re-run works', () => {
    const dir = bareDesk('init-aon-');
    const before = filesOf(dir);
    chmodSync(path.join(dir, 'src'), 0o555);
    let r: ReturnType<typeof withoutOverride>;
    try {
      r = withoutOverride(dir, ['init']);
    } finally {
      chmodSync(path.join(dir, 'src'), 0o755);
    }
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('init: cannot write src/ctrlrun.control.ts: permission denied (EACCES); nothing was written');
    expect(r.out).not.toMatch(STACK);
    expect(filesOf(dir)).toEqual(before); // no policy, manifest, starter tests or .gitattributes left behind
    const again = withoutOverride(dir, ['init']);
    expect(again.code, again.out).toBe(0);
    for (const f of ['ctrlrun.yaml', 'ctrlrun.tools.yaml', 'src/ctrlrun.control.ts', '.gitattributes']) expect(existsSync(path.join(dir, f)), f).toBe(true);
  });

  it('a folder with no package.json: refused with a hint, nothing written; with a package.json it runs', async () => {
    const dir = makeTempDir('init-nopkg-');
    dirs.push(dir);
    writeFiles(dir, {
      'agent.ts':
        "import { tool } from '@openai/agents';\nimport { z } from 'zod';\nexport const t = tool({ name: 'ship', description: 'd', parameters: z.object({}), execute: async () => 'x' });\n",
    });
    const before = filesOf(dir);
    const r = await cli(['init'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "init: no package.json in this folder; nothing was written. init writes into the package that holds the tools: run it in the app's package folder",
    );
    expect(r.stderr).toContain('`npm init`');
    expect(filesOf(dir)).toEqual(before);
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', type: 'module' }));
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect(existsSync(path.join(dir, 'ctrlrun.yaml'))).toBe(true);
  });
});

describe('codemod --write writes all or nothing', () => {
  /** refund-desk after init and generate, with close_account in a file of its own under src/ro/. */
  async function splitDesk(prefix: string): Promise<string> {
    const dir = copyFixture('refund-desk', prefix);
    dirs.push(dir);
    const tools = readFileSync(path.join(dir, 'src/tools.ts'), 'utf8');
    const at = tools.indexOf("/** Close a customer's account. */");
    writeFileSync(path.join(dir, 'src/tools.ts'), tools.slice(0, at));
    mkdirSync(path.join(dir, 'src/ro'));
    writeFileSync(
      path.join(dir, 'src/ro/close.ts'),
      `import { tool } from '@openai/agents';\nimport { z } from 'zod';\nimport { closeAccount } from '../payments.js';\n\n${tools.slice(at)}`,
    );
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    return dir;
  }

  it('one file in a folder it cannot write: exit 2 naming it, no file changed', async () => {
    const dir = await splitDesk('codemod-aon-dir-');
    const before = filesOf(dir);
    chmodSync(path.join(dir, 'src/ro'), 0o555);
    let r: ReturnType<typeof withoutOverride>;
    try {
      r = withoutOverride(dir, ['codemod', '--write', '--allow-dirty']);
    } finally {
      chmodSync(path.join(dir, 'src/ro'), 0o755);
    }
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('codemod --write: cannot write src/ro/close.ts: permission denied (EACCES); nothing was written (2 files planned');
    expect(r.out).not.toMatch(STACK);
    expect(filesOf(dir)).toEqual(before);
    const again = withoutOverride(dir, ['codemod', '--write', '--allow-dirty']);
    expect(again.code, again.out).toBe(0);
    expect(readFileSync(path.join(dir, 'src/ro/close.ts'), 'utf8')).toContain("protectedTool('accounts.close'");
  });

  it('one read-only file (0444): exit 2 naming it, no file changed', async () => {
    const dir = await splitDesk('codemod-aon-file-');
    chmodSync(path.join(dir, 'src/ro/close.ts'), 0o444);
    const before = filesOf(dir);
    const r = withoutOverride(dir, ['codemod', '--write', '--allow-dirty']);
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('cannot write src/ro/close.ts: permission denied (EACCES); nothing was written');
    expect(filesOf(dir)).toEqual(before);
  });

  it('the generated module does not exist: refused, nothing written, generate named', async () => {
    const dir = copyFixture('refund-desk', 'codemod-nogen-');
    dirs.push(dir);
    const before = filesOf(dir);
    const r = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "codemod --write: nothing was written: the rewritten calls import src/ctrlrun.generated.ts (ctrlrun.tools.yaml's output), which does not exist yet. Run `ctrlrun-gen generate` first",
    );
    expect(filesOf(dir)).toEqual(before);
    // the dry run still shows the diff
    expect((await cli(['codemod'], { cwd: dir })).code).toBe(0);
  });

  it('generate refuses (a TLS pin no function tool can honour): refused, nothing written, the finding shown, even with an old module there', async () => {
    const dir = copyFixture('refund-desk', 'codemod-genfail-');
    dirs.push(dir);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const policy = path.join(dir, 'ctrlrun.yaml');
    const pin = `    upstream: { tls_cert_sha256: "sha256:${'ab'.repeat(32)}" }\n`;
    writeFileSync(
      policy,
      readFileSync(policy, 'utf8').replace('ctrlrun.policy/v6', 'ctrlrun.policy/v8').replace('    max_attempts: 3\n', `    max_attempts: 3\n${pin}`),
    );
    const before = filesOf(dir);
    const r = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('codemod --write: nothing was written: the rewritten calls import src/ctrlrun.generated.ts');
    expect(r.stderr).toContain('`generate` refuses: 1 error between the policy, the manifest and the code');
    expect(r.stderr).toContain('whose `upstream` pins a TLS certificate');
    expect(filesOf(dir)).toEqual(before);
  });

  it('one tool generate leaves unprotected (issue 40): the others rewritten, that one a conflict saying why, exit 1', async () => {
    const dir = copyFixture('refund-desk', 'codemod-leftout-');
    dirs.push(dir);
    const tools = path.join(dir, 'src/tools.ts');
    // the refund's rules read `amount`; a transform's result cannot be checked against them
    writeFileSync(tools, readFileSync(tools, 'utf8').replace('amount: z.number().int(),', 'amount: z.number().int().transform((n) => n * 100),'));
    const generate = await cli(['generate'], { cwd: dir });
    expect(generate.code).toBe(1);
    const r = await cli(['codemod', '--write', '--allow-dirty'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /src\/tools\.ts:\d+:\d+: conflict: tool 'refund' is not protected by the generated module \(generate leaves it unprotected \(schema-transforms-input\)\); left unchanged\n {4}src\/tools\.ts:\d+:\d+: `amount` of tool `refund` uses \.transform\(\)/,
    );
    const after = readFileSync(tools, 'utf8');
    expect(after).toContain("protectedTool('stripe.charge.read', {");
    expect(after).toContain("protectedTool('accounts.close', {");
    expect(after).toContain('export const refund = tool({');
  });
});

describe('codemod --write at a workspace root writes every package or none', () => {
  it("one package's file in a folder it cannot write: exit 2, the other package's files unchanged too", async () => {
    const dir = makeTempDir('codemod-aon-ws-');
    dirs.push(dir);
    const agent =
      "import { Agent, tool } from '@openai/agents';\nimport { z } from 'zod';\nexport const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ id: z.string() }), execute: async ({ id }) => id });\nexport const agent = new Agent({ name: 'desk', tools: [refund] });\n";
    const tsconfig = JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true } });
    writeFiles(dir, {
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'packages/a/package.json': JSON.stringify({ name: 'a', type: 'module' }),
      'packages/a/tsconfig.json': tsconfig,
      'packages/a/src/agent.ts': agent,
      'packages/b/package.json': JSON.stringify({ name: 'b', type: 'module' }),
      'packages/b/tsconfig.json': tsconfig,
      'packages/b/src/ro/agent.ts': agent,
    });
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    expect((await cli(['generate'], { cwd: dir })).code).toBe(0);
    const before = filesOf(dir);
    chmodSync(path.join(dir, 'packages/b/src/ro'), 0o555);
    let r: ReturnType<typeof withoutOverride>;
    try {
      r = withoutOverride(dir, ['codemod', '--write', '--allow-dirty']);
    } finally {
      chmodSync(path.join(dir, 'packages/b/src/ro'), 0o755);
    }
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('codemod --write: cannot write packages/b/src/ro/agent.ts: permission denied (EACCES); nothing was written (2 files planned');
    expect(r.out).not.toContain('wrote packages/a/src/agent.ts');
    expect(filesOf(dir)).toEqual(before);
  });
});

describe('check --fix when generate leaves a tool unprotected', () => {
  it('a literal .default() is protected like any tool (issue 40); a .transform() the policy reads is left, the others rewritten, the lint still fails', async () => {
    const dir = copyFixture('refund-desk', 'fix-genfail-');
    dirs.push(dir);
    const tools = path.join(dir, 'src/tools.ts');
    writeFileSync(tools, readFileSync(tools, 'utf8').replace('reason: z.string().optional()', "reason: z.string().default('none')"));
    const r = await cli(['check', '--fix', '--allow-dirty'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(tools, 'utf8')).toContain("protectedTool('stripe.refund', {");

    const other = copyFixture('refund-desk', 'fix-leftout-');
    dirs.push(other);
    const otherTools = path.join(other, 'src/tools.ts');
    writeFileSync(otherTools, readFileSync(otherTools, 'utf8').replace('amount: z.number().int(),', 'amount: z.number().int().transform((n) => n * 100),'));
    const left = await cli(['check', '--fix', '--allow-dirty'], { cwd: other });
    // the transform the rules read is the policy's error (policy-invalid: exit 2), the refund still open
    expect(left.code).toBe(2);
    expect(left.stdout).toContain('policy-invalid');
    const text = readFileSync(otherTools, 'utf8');
    expect(text).toContain("protectedTool('stripe.charge.read', {");
    expect(text).toContain('export const refund = tool({');
    expect(left.stdout).toContain('unprotected-tool');
  });
});
