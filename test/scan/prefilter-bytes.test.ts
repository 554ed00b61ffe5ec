import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSource } from '../../src/scan/decode.js';
import { isPlainUtf8, mayMatter, mayMatterBytes, PREFILTER_TOKENS } from '../../src/scan/repo.js';

/**
 * Issue 10 item 10: check's prefilter reads plain UTF-8 files as bytes, without decoding them. It
 * must decide exactly as the text prefilter does on the decoded text, and leave every other file
 * (byte-order marks, UTF-16, bad bytes, NUL) to decodeSource.
 */
const pieces = [...PREFILTER_TOKENS, 'import', 'require', '\\u0040', '\\x40', '\\0', '\\n', 'é', '😀', '\uFFFD', 'ctrl', 'run', '#sdk', ' ', 'a'];
const text = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string()), { maxLength: 12 }).map((xs) => xs.join(''));

describe('the byte prefilter (issue 10 item 10)', () => {
  it('decides as the text prefilter on the decoded text, for every plain UTF-8 file', () => {
    fc.assert(
      fc.property(text, fc.array(fc.constantFrom('#sdk', 'agents-barrel', 'é-alias'), { maxLength: 2 }), (t, extra) => {
        const buf = Buffer.from(t, 'utf8');
        if (!isPlainUtf8(buf)) return;
        const decoded = decodeSource(buf);
        expect('text' in decoded && decoded.text).toBe(t);
        expect(mayMatterBytes(buf, extra)).toBe(mayMatter(t, extra));
      }),
      { numRuns: 2000 },
    );
  });

  it('is the plain definition (any token occurs, or an escape in a file that imports), whatever the tokens spell', () => {
    const ESCAPE = /\\(?:u[0-9a-fA-F{]|x[0-9a-fA-F]|[0-7])/;
    const naive = (t: string, extra: readonly string[]): boolean =>
      [...PREFILTER_TOKENS, ...extra].some((token) => token !== '' && t.includes(token)) ||
      (t.includes('\\') && ESCAPE.test(t) && (t.includes('import') || t.includes('require')));
    const special = ['$lib(x)', 'a.b', '[c]', 'd|e', '*f', 'é-alias', '😀/sdk', '\\g', '^h$'];
    const withSpecial = fc.array(fc.oneof(fc.constantFrom(...pieces, ...special, 'ab', 'xa'), fc.string()), { maxLength: 12 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(withSpecial, fc.subarray(special), (t, extra) => {
        expect(mayMatter(t, extra)).toBe(naive(t, extra));
        const buf = Buffer.from(t, 'utf8');
        if (isPlainUtf8(buf)) expect(mayMatterBytes(buf, extra)).toBe(naive(t, extra));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves byte-order marks, UTF-16, invalid bytes and NUL to decodeSource', () => {
    expect(isPlainUtf8(Buffer.from("import { tool } from '@openai/agents';\n"))).toBe(true);
    expect(isPlainUtf8(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x')]))).toBe(false);
    expect(isPlainUtf8(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x', 'utf16le')]))).toBe(false);
    expect(isPlainUtf8(Buffer.from('@openai/agents', 'utf16le'))).toBe(false);
    expect(isPlainUtf8(Buffer.from([0x61, 0xc3, 0x28]))).toBe(false);
    expect(isPlainUtf8(Buffer.from('a\u0000b'))).toBe(false);
  });

  it('finds the escape-spelled specifier only through the text test', () => {
    const escaped = Buffer.from("import { tool } from '@openai\\u002fagents';\n");
    expect(mayMatterBytes(escaped)).toBe(true);
    expect(mayMatterBytes(Buffer.from('const a = "\\\\";\n'))).toBe(false);
  });
});
