import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/types.js';
import { siblingServerAnswersTests, writeAgentsPackage, writeAnsweringApp } from '../helpers/answering-workspace.js';
import { cli } from '../helpers/cli.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/**
 * Issue 40 item 4 (was red21-npm-link-answers). Layout: two checkouts side by side, each its own git repository
 * (`~/code/agents`, the tools and the manifest, published as `agents`; `~/code/server`, the app,
 * depending on the published `"agents": "^1.0.0"`), developed together the way npm documents it:
 * `npm link` in agents, `npm link agents` in server, which leaves package.json as it is and makes
 * `server/node_modules/agents` a symbolic link to `../agents`. The server answers the tools'
 * interruptions with `result.state.approve(item)`. The folders beside `agents` are read only for a
 * `file:`/`link:` dependency in their package.json, and a version range is taken for the
 * registry's package, although the installed `agents` is this very folder; so the codemod rewrites
 * close_account with "0 conflicts" and check in agents is green, while the linked server (and the
 * next release of the app, once this version is published) has every approved call refused
 * ApprovalMismatch. Control: the same server with `"agents": "file:../agents"` is read.
 */
function checkouts(dependency: string, link: boolean): string {
  const root = makeTempDir('npm-link-');
  dirs.push(root);
  writeAgentsPackage(path.join(root, 'agents'));
  writeFiles(root, { 'agents/package.json': JSON.stringify({ name: 'agents', version: '1.4.0', type: 'module' }) });
  writeAnsweringApp(path.join(root, 'server'), 'agents/src/tools.js', { name: 'server', private: true, type: 'module', dependencies: { agents: dependency } });
  for (const dir of ['agents', 'server']) execFileSync('git', ['init', '-q'], { cwd: path.join(root, dir) });
  if (link) {
    mkdirSync(path.join(root, 'server/node_modules'), { recursive: true });
    symlinkSync('../../agents', path.join(root, 'server/node_modules/agents'), 'dir');
  }
  return root;
}

describe('a server linked to the agents checkout with `npm link agents`', () => {
  siblingServerAnswersTests(() => path.join(checkouts('^1.0.0', true), 'agents'));

  it('check in the linked server (no manifest of its own) reports its answers, exit 1', async () => {
    const server = path.join(checkouts('^1.0.0', true), 'server');
    const c = await cli(['check', '--format', 'json'], { cwd: server });
    const findings = (JSON.parse(c.stdout) as { findings: Finding[] }).findings;
    expect(findings.filter((f) => f.ruleId === 'sdk-approval').map((f) => `${f.file}:${f.line}`)).toEqual(['src/app.ts:11', 'src/app.ts:12']);
    expect(findings.map((f) => f.ruleId)).not.toContain('policy-invalid');
    expect(c.code).toBe(1);
  });

  it('an installed copy (not a link) or a link to another folder is the registry’s package: 0 conflicts', async () => {
    const copy = checkouts('^1.0.0', false);
    mkdirSync(path.join(copy, 'server/node_modules/agents'), { recursive: true });
    const r = await cli(['codemod'], { cwd: path.join(copy, 'agents') });
    expect(r.stdout).toContain('0 conflicts');
    const other = checkouts('^1.0.0', false);
    mkdirSync(path.join(other, 'elsewhere'));
    mkdirSync(path.join(other, 'server/node_modules'));
    symlinkSync('../../elsewhere', path.join(other, 'server/node_modules/agents'), 'dir');
    expect((await cli(['codemod'], { cwd: path.join(other, 'agents') })).stdout).toContain('0 conflicts');
  });

  // control: the same checkouts with the dependency written as a path are read
  it('control: `"agents": "file:../agents"` is kept as a conflict', async () => {
    const r = await cli(['codemod'], { cwd: path.join(checkouts('file:../agents', false), 'agents') });
    expect(r.stdout).toContain('1 conflicts');
    expect(r.stdout).toContain('../server/src/app.ts:11');
  });
});
