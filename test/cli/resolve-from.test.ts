import { describe, expect, it } from 'vitest';
import { initialize, packageNameOf, resolve } from '../../src/cli/resolve-from.js';

// The launcher's resolve hook: the CLI's tools, imported by the CLI's own code, resolve from the
// companion first (an app may hoist another version where ctrlrun-gen would find it); the app's
// imports are never redirected; anything else falls back to the companion only when not found.
const COMPANION = 'file:///app/node_modules/ctrlrun-gen-cli/package.json';
const SELF = 'file:///app/node_modules/ctrlrun-gen/';
initialize({ parentURL: COMPANION, selfURL: SELF, tools: ['ts-morph', 'yargs', '@modelcontextprotocol/sdk'] });

/** A next() that resolves everything, saying from where it was asked. */
const next = async (specifier: string, context?: { parentURL?: string }) => `${specifier}@${context?.parentURL}`;
const ctx = (parentURL: string) => ({ parentURL, conditions: [], importAttributes: {} });

describe('the resolve hook', () => {
  it("a tool imported by the CLI's code resolves from the companion first (subpaths and scopes too)", async () => {
    expect(await resolve('ts-morph', ctx(`${SELF}dist/bin/chunk-A.js`), next)).toBe(`ts-morph@${COMPANION}`);
    expect(await resolve('@modelcontextprotocol/sdk/server/mcp.js', ctx(`${SELF}dist/bin/chunk-B.js`), next)).toBe(
      `@modelcontextprotocol/sdk/server/mcp.js@${COMPANION}`,
    );
  });

  it("the app's own imports, and packages that are not the CLI's tools, resolve where they are imported", async () => {
    expect(await resolve('yargs', ctx('file:///app/src/cli.js'), next)).toBe('yargs@file:///app/src/cli.js');
    expect(await resolve('lossless-json', ctx(`${SELF}dist/runtime/x.js`), next)).toBe(`lossless-json@${SELF}dist/runtime/x.js`);
    expect(await resolve('./local.js', ctx(`${SELF}dist/bin/chunk-A.js`), next)).toBe(`./local.js@${SELF}dist/bin/chunk-A.js`);
  });

  it('a tool the companion does not hold resolves where it is imported; a missing bare import falls back to the companion', async () => {
    const notInCompanion = async (specifier: string, context?: { parentURL?: string }) => {
      if (context?.parentURL === COMPANION && specifier === 'yargs') throw Object.assign(new Error('nope'), { code: 'ERR_MODULE_NOT_FOUND' });
      if (context?.parentURL !== COMPANION && specifier === 'hono') throw Object.assign(new Error('nope'), { code: 'ERR_MODULE_NOT_FOUND' });
      return `${specifier}@${context?.parentURL}`;
    };
    expect(await resolve('yargs', ctx(`${SELF}dist/bin/chunk-A.js`), notInCompanion)).toBe(`yargs@${SELF}dist/bin/chunk-A.js`);
    expect(await resolve('hono', ctx(`${SELF}dist/bin/chunk-A.js`), notInCompanion)).toBe(`hono@${COMPANION}`);
  });

  it('names the package of a specifier', () => {
    expect(packageNameOf('@babel/code-frame')).toBe('@babel/code-frame');
    expect(packageNameOf('hono/streaming')).toBe('hono');
    expect(packageNameOf('ts-morph')).toBe('ts-morph');
  });
});
