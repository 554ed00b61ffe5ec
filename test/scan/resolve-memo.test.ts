import { describe, expect, it } from 'vitest';
import type { ts } from 'ts-morph';
import { resolve, type FileContext } from '../../src/scan/file/context.js';
import { sdkMemberValue, sdkModuleValue, type Binding } from '../../src/scan/imports.js';
import { parseSource } from '../../src/scan/parse.js';
import { typescript } from '../../src/scan/typescript.js';

// `resolve` keeps its last answer (each call's callee is asked twice, issue 40, item 8): an answer
// holds only while the same scopes are open, and each scope the walk opens is a new map.

/** The callee of the file's first call, and the parts of a file context `resolve` reads. */
function setup(text: string): { cx: FileContext; callee: ts.Expression } {
  const { sf } = parseSource('a.ts', text);
  let callee: ts.Expression | undefined;
  const find = (n: ts.Node): void => {
    if (!callee && typescript.isCallExpression(n)) callee = n.expression;
    typescript.forEachChild(n, find);
  };
  find(sf);
  const bindings = new Map<string, Binding>([
    ['tool', { kind: 'sdk', value: sdkMemberValue('@openai/agents', 'tool'), via: 'named' }],
    ['sdk', { kind: 'sdk', value: sdkModuleValue('@openai/agents'), via: 'namespace' }],
  ]);
  const cx = { sf, fileAbs: '/r/a.ts', links: undefined, bindings, scopes: [], cache: {} } as unknown as FileContext;
  return { cx, callee: callee! };
}

const shadowing = (name: string): Map<string, Binding | null> => new Map([[name, null]]);

describe('resolve: the last answer, kept for the scopes it was given in', () => {
  it('a scope opened or closed since is asked again', () => {
    const { cx, callee } = setup('tool({});');
    expect(resolve(cx, callee)?.member).toBe('tool');
    cx.scopes.push(shadowing('tool'));
    expect(resolve(cx, callee)).toBeUndefined();
    cx.scopes.pop();
    expect(resolve(cx, callee)?.member).toBe('tool');
    // a sibling scope at the same depth is another map: asked again
    cx.scopes.push(new Map());
    expect(resolve(cx, callee)?.member).toBe('tool');
    cx.scopes.pop();
    cx.scopes.push(shadowing('tool'));
    expect(resolve(cx, callee)).toBeUndefined();
  });

  it('another callee, or the same one in wrappers, gets its own answer', () => {
    const { cx, callee } = setup('(sdk.tool)({}); tool({});');
    expect(resolve(cx, callee)).toMatchObject({ member: 'tool', binding: { kind: 'namespace', localName: 'sdk' } });
    const other = typescript.factory.createIdentifier('tool');
    expect(resolve(cx, other)).toMatchObject({ member: 'tool', binding: { kind: 'named', localName: 'tool' } });
    expect(resolve(cx, (callee as ts.ParenthesizedExpression).expression)).toMatchObject({ member: 'tool', binding: { kind: 'namespace' } });
    expect(resolve(cx, typescript.factory.createIdentifier('nothing'))).toBeUndefined();
    expect(resolve(cx, callee)?.binding.kind).toBe('namespace');
  });
});
