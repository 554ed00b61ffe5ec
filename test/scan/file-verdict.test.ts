import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOOR_WORDS } from '../../src/scan/door-words.js';
import { isPlainUtf8, makePrefilter, mayMatter, PREFILTER_TOKENS } from '../../src/scan/prefilter.js';
import { fileVerdict, NOT_PLAIN, PLAIN_PARSE, PLAIN_SKIP, PLAIN_SKIP_DOOR_WORD, type Verdict } from '../../src/scan/read.js';

/**
 * Issue 40, item 8: the read's verdict on a file asks every question of one latin1 string (the NUL,
 * the backslash, the tokens and the door words in one pattern). It must be the plain definition:
 * not plain UTF-8, else the text prefilter on the decoded text, else whether a door word occurs.
 */
function plainVerdict(buf: Buffer, extra: readonly string[]): Verdict {
  if (!isPlainUtf8(buf)) return NOT_PLAIN;
  const text = buf.toString('utf8');
  if (mayMatter(text, extra)) return PLAIN_PARSE;
  return DOOR_WORDS.some((w) => text.includes(w)) ? PLAIN_SKIP_DOOR_WORD : PLAIN_SKIP;
}

const verdictOf = (buf: Buffer, extra: readonly string[]): Verdict => fileVerdict(makePrefilter(extra, DOOR_WORDS), buf);

// pieces that make words overlap, split across multibyte characters, and sit beside line ends
const pieces = [
  ...PREFILTER_TOKENS,
  ...DOOR_WORDS,
  'she',
  'll',
  "'",
  'comput',
  'er',
  'approve',
  'Tool',
  'edge',
  'é',
  'ü',
  '😀',
  '中',
  '\uFFFD',
  '\r\n',
  '\n',
  '\\u0040',
  '\\x40',
  'import',
  'require',
  '#sdk',
  ' ',
];
const extras = fc.array(fc.constantFrom('#sdk', 'shellx', 'é-alias', 'editorial', 'tool'), { maxLength: 3 });
const text = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string()), { maxLength: 14 }).map((xs) => xs.join(''));

describe("the read's verdict on a file (issue 40, item 8)", () => {
  it('is the plain definition on plain UTF-8 text, with and without repo tokens', () => {
    fc.assert(
      fc.property(text, extras, (t, extra) => {
        const buf = Buffer.from(t, 'utf8');
        expect(verdictOf(buf, extra)).toBe(plainVerdict(buf, extra));
      }),
      { numRuns: 4000 },
    );
  });

  it('is the plain definition on bytes that are not plain UTF-8 (byte-order mark, NUL, bad bytes, UTF-16)', () => {
    const bytes = fc.tuple(text, fc.constantFrom('bom', 'nul', 'bad', 'utf16', 'cut')).map(([t, how]) => {
      const utf8 = Buffer.from(t, 'utf8');
      if (how === 'bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]);
      if (how === 'nul') return Buffer.concat([utf8, Buffer.from([0]), Buffer.from('shell')]);
      if (how === 'bad') return Buffer.concat([Buffer.from('@openai'), Buffer.from([0xc3, 0x28]), utf8]);
      if (how === 'utf16') return Buffer.from(t, 'utf16le');
      return utf8.subarray(0, Math.max(0, utf8.length - 1));
    });
    fc.assert(
      fc.property(bytes, extras, (buf, extra) => {
        expect(verdictOf(buf, extra)).toBe(plainVerdict(buf, extra));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers the cases by name', () => {
    const v = (t: string | Buffer, extra: readonly string[] = []) => verdictOf(Buffer.isBuffer(t) ? t : Buffer.from(t, 'utf8'), extra);
    expect(v("import { tool } from '@openai/agents';\r\n")).toBe(PLAIN_PARSE);
    expect(v('const x = 1;\r\n')).toBe(PLAIN_SKIP);
    // a door word first, then a token after it
    expect(v("x.shell = y;\nconst a = 'approve';\n")).toBe(PLAIN_PARSE);
    // a door word that is a token too
    expect(v('x.toolInputGuardrails = [];\n')).toBe(PLAIN_PARSE);
    // a door word alone, and one split by a multibyte character
    expect(v('x.editor = y;\n')).toBe(PLAIN_SKIP_DOOR_WORD);
    expect(v('x.edi\u00e9tor = y; she😀ll\n')).toBe(PLAIN_SKIP);
    // a repo token that starts inside a door word
    expect(v('x.shellx = 1;\n', ['llx'])).toBe(PLAIN_PARSE);
    expect(v('x.shell = 1;\n', ['llx'])).toBe(PLAIN_SKIP_DOOR_WORD);
    // an escape in a file that imports, after a door word
    expect(v("import a from 'x\\u002fy'; shell\n")).toBe(PLAIN_PARSE);
    expect(v(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("import '@openai/agents';")]))).toBe(NOT_PLAIN);
    expect(v(Buffer.from('shell\u0000'))).toBe(NOT_PLAIN);
  });
});
