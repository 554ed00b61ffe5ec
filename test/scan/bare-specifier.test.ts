import { describe, expect, it } from 'vitest';
import { bareSpecifier, isRuntimeSpecifier } from '../../src/scan/bare-specifier.js';
import { isSdkModule, isToolFactory, sdkEntry } from '../../src/scan/imports.js';
import { isRealtimeEntry } from '../../src/scan/realtime.js';
import { mayMatter } from '../../src/scan/prefilter.js';

/**
 * The specifier Node names a package by, for the forms an edge function loads a package by (issue 40
 * item 4, gap I): every combination of a form, a package, a version and a subpath is tried.
 */

const PACKAGES = ['@openai/agents', '@openai/agents-core', '@openai/agentsfoo', 'zod', 'preact'];
const VERSIONS = ['', '@0.20.0', '@^0.20', '@~3.23.8', '@latest', '@>=1<2'];
const SUBPATHS = ['', '/realtime', '/sandbox/local', '/v4'];

/** Each form: how it writes package, version and subpath. */
const FORMS: Record<string, (pkg: string, version: string, sub: string) => string> = {
  'npm:': (p, v, s) => `npm:${p}${v}${s}`,
  'npm:/': (p, v, s) => `npm:/${p}${v}${s}`,
  'jsr:': (p, v, s) => `jsr:${p}${v}${s}`,
  'esm.sh': (p, v, s) => `https://esm.sh/${p}${v}${s}`,
  'esm.sh with a query': (p, v, s) => `https://esm.sh/${p}${v}${s}?target=deno&bundle`,
  'esm.sh with its build version': (p, v, s) => `https://esm.sh/v135/${p}${v}${s}`,
  'esm.sh with its external marker': (p, v, s) => `https://esm.sh/*${p}${v}${s}`,
  jsdelivr: (p, v, s) => `https://cdn.jsdelivr.net/npm/${p}${v}${s}`,
  "jsdelivr's ES module build": (p, v, s) => `https://cdn.jsdelivr.net/npm/${p}${v}${s}/+esm`,
  'unpkg with a fragment': (p, v, s) => `https://unpkg.com/${p}${v}${s}#main`,
  'a host with a port, over http': (p, v, s) => `http://localhost:8080/${p}${v}${s}`,
  'a trailing slash': (p, v, s) => `https://esm.sh/${p}${v}${s}/`,
};

describe('bareSpecifier', () => {
  for (const [form, write] of Object.entries(FORMS))
    it(`${form}: the package and its subpath, without the version`, () => {
      for (const pkg of PACKAGES)
        for (const version of VERSIONS)
          for (const sub of SUBPATHS) {
            const written = write(pkg, version, sub);
            expect(bareSpecifier(written), written).toBe(`${pkg}${sub}`);
            expect(isRuntimeSpecifier(written), written).toBe(true);
          }
    });

  it('leaves every other specifier as it is', () => {
    const others = [
      '@openai/agents',
      '@openai/agents/realtime',
      'zod',
      './tools.js',
      '../x/y.ts',
      '/abs/path.ts',
      'node:fs',
      'bun:test',
      'file:///srv/agents.ts',
      'data:text/javascript,export default 1',
      'npm:',
      'jsr:',
      'npm:@openai/',
      'https://esm.sh',
      'https://esm.sh/',
      'C:\\repo\\agents.ts',
      '#internal/agents',
    ];
    for (const s of others) {
      expect(bareSpecifier(s), s).toBe(s);
      expect(isRuntimeSpecifier(s), s).toBe(false);
    }
  });
});

describe('the SDK readers take every form', () => {
  it('isSdkModule, sdkEntry, isToolFactory and isRealtimeEntry answer for a form as for the bare specifier', () => {
    for (const [form, write] of Object.entries(FORMS))
      for (const pkg of PACKAGES)
        for (const sub of SUBPATHS) {
          const written = write(pkg, '@0.20.0', sub);
          const bare = `${pkg}${sub}`;
          expect(isSdkModule(written), `${form}: ${written}`).toBe(isSdkModule(bare));
          expect(sdkEntry(written), `${form}: ${written}`).toEqual(sdkEntry(bare));
          expect(isRealtimeEntry(written), `${form}: ${written}`).toBe(isRealtimeEntry(bare));
          for (const member of ['tool', 'hostedMcpTool', 'fooTool', 'Agent'])
            expect(isToolFactory(written, member), `${form}: ${written} ${member}`).toBe(isToolFactory(bare, member));
        }
  });

  it('a package whose name only starts with the SDK’s is not the SDK in any form', () => {
    for (const write of Object.values(FORMS)) expect(isSdkModule(write('@openai/agentsfoo', '', ''))).toBe(false);
  });

  it('the prefilter passes a file importing the SDK in any form (it is parsed)', () => {
    for (const write of Object.values(FORMS)) expect(mayMatter(`import { tool } from '${write('@openai/agents', '@0.20.0', '')}';\n`)).toBe(true);
  });
});
