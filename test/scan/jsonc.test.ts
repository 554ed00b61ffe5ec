import { describe, expect, it } from 'vitest';
import { lineAndColumn, parseJsonc, parseJsoncObject } from '../../src/scan/jsonc.js';

/**
 * Session 31 (issue 40): the scanner's one JSON-with-comments reader, shared by the tsconfig,
 * package.json and workspace readers and the Deno config reader (which also needs where and why a
 * config is no JSON object).
 */
describe('parseJsonc', () => {
  it('reads comments and trailing commas as tsconfig and Deno do', () => {
    const text = '{\n  // the SDK\n  "a": [1, 2, /* two */],\n  "b": { "c": "d", },\n}\n';
    expect(parseJsonc(text)).toEqual({ a: [1, 2], b: { c: 'd' } });
  });

  it('keeps a string that holds a comma before a brace, or comment marks', () => {
    expect(parseJsonc('{ "a": "x,}", "b": "y, ]", "c": "// not a comment", "d": "/* nor */" }')).toEqual({
      a: 'x,}',
      b: 'y, ]',
      c: '// not a comment',
      d: '/* nor */',
    });
  });

  it('is undefined for a text that does not parse', () => {
    expect(parseJsonc('{ "a": }')).toBeUndefined();
    expect(parseJsonc('{ a: 1 }')).toBeUndefined();
    expect(parseJsonc('')).toBeUndefined();
  });
});

describe('parseJsoncObject', () => {
  it('gives the object of a config that parses', () => {
    expect(parseJsoncObject('deno.jsonc', '{ "imports": { "x": "npm:x@1", }, } // end\n')).toEqual({ value: { imports: { x: 'npm:x@1' } } });
  });

  it('locates a syntax error, with the parser words', () => {
    const { error } = parseJsoncObject('deno.json', '{\n  "imports": {\n    "@openai/agents": \n  }\n}\n');
    expect(error).toEqual({ offset: 42, line: 4, column: 3, rootNotObject: false, reason: 'Expression expected.' });
  });

  it('says a top level that is no object, at the value (after a comment)', () => {
    const { error } = parseJsoncObject('deno.jsonc', '// a list\n  ["@openai/agents"]\n');
    expect(error).toMatchObject({ line: 2, column: 3, rootNotObject: true });
    expect(parseJsoncObject('deno.json', '"text"').error).toMatchObject({ line: 1, column: 1, rootNotObject: true });
  });

  it('takes what TypeScript reads without a diagnostic where JSON.parse refuses (an empty text, a hex number)', () => {
    expect(parseJsoncObject('deno.json', '')).toEqual({ value: {} });
    expect(parseJsoncObject('deno.json', '{ "a": 0x10 }')).toEqual({ value: { a: 16 } });
  });
});

describe('lineAndColumn', () => {
  it('is 1-based, counting lines by \\n', () => {
    expect(lineAndColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
