import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ts } from 'ts-morph';
import { propertyWriterOf } from '../../src/scan/file/mcp-lists.js';
import { parseSource } from '../../src/scan/parse.js';
import { skipWrappers } from '../../src/scan/syntax.js';
import { typescript } from '../../src/scan/typescript.js';

// `Object.defineProperty(agent, 'mcpServers', …)` is found by its callee before its key is tested
// (issue 40, item 8: the key's test looked names up in scope for every call with two arguments),
// and the callee by its member's name before its text is made. The answer must be the text test's
// for every call: checked on every codemod fixture and on callees written every way.

const PROPERTY_WRITERS = new Set(['Object.defineProperty', 'Reflect.defineProperty', 'Reflect.set']);
const byText = (e: ts.Expression, sf: ts.SourceFile): string | undefined => {
  const text = skipWrappers(e).getText(sf);
  return PROPERTY_WRITERS.has(text) ? text : undefined;
};

const CALLEES = `
Object.defineProperty(a, k, v); Reflect.defineProperty(a, k, v); Reflect.set(a, k, v);
(Object.defineProperty)(a, k, v); (0, Reflect.set)(a, k, v); (Reflect.set as any)(a, k, v); Reflect.set!(a, k, v);
Object /* c */ .defineProperty(a, k, v); Object
  .defineProperty(a, k, v); Object?.defineProperty(a, k, v); Object['defineProperty'](a, k, v);
globalThis.Object.defineProperty(a, k, v); Reflect.get(a, k); map.set(a, k); x.defineProperty(a, k, v);
Object.defineProperties(a, k); Reflect.setPrototypeOf(a, k); set(a, k, v); defineProperty(a, k, v);
new Reflect.set(a, k, v); Reflect.set<T>(a, k, v); (<any>Reflect.set)(a, k, v);
`;

function sources(): Array<{ file: string; text: string }> {
  const root = path.resolve(__dirname, '../../fixtures/codemod');
  const out = [{ file: 'callees.ts', text: CALLEES }];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (/\.[cm]?[jt]sx?$/.test(e.name)) out.push({ file: abs, text: readFileSync(abs, 'utf8') });
    }
  };
  walk(root);
  return out;
}

describe('propertyWriterOf', () => {
  it('answers as the text test for every call of every codemod fixture and every way of writing the callee', () => {
    let calls = 0;
    const found = new Set<string>();
    for (const { file, text } of sources()) {
      const { sf } = parseSource(file, text);
      const visit = (n: ts.Node): void => {
        if (typescript.isCallExpression(n) || typescript.isNewExpression(n)) {
          calls++;
          const answer = byText(n.expression, sf);
          if (answer !== undefined) found.add(`${file === 'callees.ts' ? '' : 'fixture '}${answer}`);
          expect(propertyWriterOf(n.expression, sf), `${file}:${n.pos}`).toBe(answer);
        }
        typescript.forEachChild(n, visit);
      };
      visit(sf);
    }
    expect(calls).toBeGreaterThan(500);
    expect([...found].filter((f) => !f.startsWith('fixture'))).toEqual(['Object.defineProperty', 'Reflect.defineProperty', 'Reflect.set']);
  });
});
