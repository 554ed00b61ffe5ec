import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_TOOLS, findCliTools, PLAIN_CHECK_TOOLS } from '../../src/cli/launch.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project whose node_modules holds `hoisted` at the top and the companion with `nested` under it. */
function layout(hoisted: readonly string[], nested: readonly string[]): { root: string; from: string } {
  // outside the repo, so nothing resolves from the repo's own node_modules
  const root = mkdtempSync(path.join(tmpdir(), 'ctrlrun-launcher-'));
  dirs.push(root);
  // like hono's, each package's exports map leaves out ./package.json
  const pkg = (dir: string, name: string, exportsMap: boolean = true) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name, version: '1.0.0', ...(exportsMap ? { exports: { '.': './index.js' } } : { main: 'index.js' }) }),
    );
    writeFileSync(path.join(dir, 'index.js'), '');
  };
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  for (const name of hoisted) pkg(path.join(root, 'node_modules', name), name);
  pkg(path.join(root, 'node_modules/ctrlrun-gen'), 'ctrlrun-gen');
  pkg(path.join(root, 'node_modules/ctrlrun-gen-cli'), 'ctrlrun-gen-cli', false); // as packages/cli: no exports map
  for (const name of nested) pkg(path.join(root, 'node_modules/ctrlrun-gen-cli/node_modules', name), name);
  return { root, from: path.join(root, 'node_modules/ctrlrun-gen/index.js') };
}

describe('the bin finds the CLI tools', () => {
  it('all hoisted: they resolve from ctrlrun-gen itself (a package whose exports hide package.json counts as found)', () => {
    const { root, from } = layout(CLI_TOOLS, []);
    expect(findCliTools({ cwd: root, env: {}, from })).toEqual({ kind: 'self' });
  });

  it('the MCP SDK nested under the companion (the rest hoisted): the companion, so the resolve hook finds it', () => {
    const { root, from } = layout(
      CLI_TOOLS.filter((t) => t !== '@modelcontextprotocol/sdk'),
      ['@modelcontextprotocol/sdk'],
    );
    expect(findCliTools({ cwd: root, env: {}, from })).toEqual({
      kind: 'companion',
      packageJson: path.join(root, 'node_modules/ctrlrun-gen-cli/package.json'),
    });
  });

  it('a plain check asks only for the compiler: hoisted ts-morph is enough, whatever else is nested; without it, the companion', () => {
    const { root, from } = layout(
      ['ts-morph'],
      CLI_TOOLS.filter((t) => t !== 'ts-morph'),
    );
    expect(findCliTools({ cwd: root, env: {}, from, needs: PLAIN_CHECK_TOOLS })).toEqual({ kind: 'self' });
    expect(findCliTools({ cwd: root, env: {}, from }).kind).toBe('companion');
    const nested = layout(
      CLI_TOOLS.filter((t) => t !== 'ts-morph'),
      ['ts-morph'],
    );
    expect(findCliTools({ cwd: nested.root, env: {}, from: nested.from, needs: PLAIN_CHECK_TOOLS }).kind).toBe('companion');
  });

  it("serve's Hono nested under the companion: the companion too", () => {
    const { root, from } = layout(
      CLI_TOOLS.filter((t) => t !== 'hono' && t !== '@hono/node-server'),
      ['hono', '@hono/node-server'],
    );
    expect(findCliTools({ cwd: root, env: {}, from }).kind).toBe('companion');
  });
});

describe('an app that hoists another version of a CLI tool', () => {
  // Found on a public repo: @vercel/node brings ts-morph 12 (and @ts-morph/common 0.11) to the top
  // of node_modules, npm nests the companion's ts-morph 28 under it, and init crashed with
  // `typescript.isSatisfiesExpression is not a function` because the CLI loaded the app's copy.
  it("everything resolves from ctrlrun-gen, but not to the companion's copy: the companion", () => {
    const { root, from } = layout(CLI_TOOLS, ['ts-morph']);
    expect(findCliTools({ cwd: root, env: {}, from })).toEqual({
      kind: 'companion',
      packageJson: path.join(root, 'node_modules/ctrlrun-gen-cli/package.json'),
    });
    expect(findCliTools({ cwd: root, env: {}, from, needs: PLAIN_CHECK_TOOLS }).kind).toBe('companion');
  });

  it('a nested copy of a tool the run does not need changes nothing (a plain check needs only ts-morph)', () => {
    const { root, from } = layout(CLI_TOOLS, ['yargs']);
    expect(findCliTools({ cwd: root, env: {}, from, needs: PLAIN_CHECK_TOOLS })).toEqual({ kind: 'self' });
    expect(findCliTools({ cwd: root, env: {}, from }).kind).toBe('companion');
  });
});
