import { isUtf8 } from 'node:buffer';

/**
 * The cheap text test: a file that contains none of these (nor an alias or barrel name of the
 * repo, nor a string escape) cannot hold an SDK call, a generated import, a suppression, a sticky
 * or SDK approval, a hand-made tool, a door written as an object or a tracing switch, and is never
 * parsed.
 */
export const PREFILTER_TOKENS = [
  // `@openai`, not `@openai/agents`: a specifier computed from pieces (`'@openai/' + 'agents'`) is reported
  '@openai',
  'protectedTool',
  'ctrlrun',
  'alwaysApprove',
  'approve(',
  // the SDK's answer by a key (`state['reject'](item)`, `state[yes ? 'approve' : 'reject'](item)`)
  "'approve'",
  '"approve"',
  "'approveTool'",
  '"approveTool"',
  "'reject'",
  '"reject"',
  "'rejectTool'",
  '"rejectTool"',
  'tracingDisabled',
  'traceIncludeSensitiveData',
  'invoke',
  // a local door or hosted MCP tool written as the object its factory returns (file/literal-doors.ts):
  // the runner finds it by its `type`, a string the file spells (in place or in a const), whatever
  // it imports; `apply_patch` and `hosted_tool` are rare enough bare, `shell` and `computer` quoted
  "'shell'",
  '"shell"',
  '`shell`',
  "'computer'",
  '"computer"',
  '`computer`',
  'apply_patch',
  'hosted_tool',
  // a door's part the SDK alone names, written on an object check cannot follow (file/door-writes.ts
  // `unknownHolderDoor`): the writer need not import anything (a helper given the server)
  'toolInputGuardrails',
  'toolOutputGuardrails',
  'errorFunction',
  'require_approval',
  'on_approval',
  // a handoff's invoke function, the SDK's name alone, written in a helper given the handoff (file/handoffs.ts)
  'onInvokeHandoff',
  // a route on the edge runtime (`export const runtime = 'edge'`) seeds the browser-side analysis
  // though it need not name the SDK (it imports the agents from another module)
  "edge'",
  'edge"',
  'edge`',
] as const;

/** A backslash escape (`'@openai\u002fagents'`): the specifier may be spelled so no token appears. */
const ESCAPE = /\\(?:u[0-9a-fA-F{]|x[0-9a-fA-F]|[0-7])/;

/** The prefilter for a repo: the tokens above and the repo's own (aliases, barrels). */
export interface Prefilter {
  /** Whether a file's text may matter. */
  text(text: string): boolean;
  /**
   * The same test on a file's bytes when they are plain UTF-8 (valid, no byte-order mark, no NUL),
   * whose text is `buf.toString('utf8')`: UTF-8 is self-synchronising, so a token occurs in the
   * bytes exactly when it occurs in the text, and most files are never decoded (start-up, issue 10).
   * Only a file with a backslash is decoded, for the escape test.
   */
  bytes(buf: Buffer): boolean;
  /** `bytes`, given the bytes read as latin1 already (`buf.toString('latin1')`). */
  latin1(buf: Buffer, latin1: string): boolean;
  /**
   * `latin1`, and for a file it does not pass, whether the bytes hold one of the ASCII `words`
   * given to `makePrefilter`: `PASSES`, `NAMES_WORD` or `NEITHER`.
   */
  classify(buf: Buffer, latin1: string): Classified;
}

/** What `Prefilter.classify` answers. */
export const NEITHER = 0;
export const PASSES = 1;
export const NAMES_WORD = 2;
export type Classified = typeof NEITHER | typeof PASSES | typeof NAMES_WORD;

const escapeRegExp = (token: string): string => token.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/**
 * One regular expression for every token, run over the text, or over the bytes read as latin1 (one
 * character per byte, so a token's UTF-8 bytes read the same way match exactly where the bytes
 * hold the token): one scan of a file instead of one per token (a third of the time, measured).
 * `words` (ASCII): the extra question `classify` answers for a file the prefilter does not pass.
 */
export function makePrefilter(extraTokens: readonly string[] = [], words: readonly string[] = []): Prefilter {
  const tokens = [...PREFILTER_TOKENS, ...extraTokens].filter((t) => t.length > 0);
  const inText = new RegExp(tokens.map(escapeRegExp).join('|'));
  const tokenBytes = tokens.map((t) => Buffer.from(t, 'utf8').toString('latin1'));
  const inBytes = new RegExp(tokenBytes.map(escapeRegExp).join('|'));
  const escapes = (text: string): boolean => text.includes('\\') && ESCAPE.test(text) && (text.includes('import') || text.includes('require'));
  // the backslash looked for in the latin1 string (the same byte), not with `Buffer#includes`
  const escapedBytes = (buf: Buffer, read: string): boolean => read.includes('\\') && escapes(buf.toString('utf8'));
  const latin1 = (buf: Buffer, read: string): boolean => inBytes.test(read) || escapedBytes(buf, read);
  return {
    text: (text) => inText.test(text) || escapes(text),
    bytes: (buf) => latin1(buf, buf.toString('latin1')),
    latin1,
    classify: classifier(tokenBytes, inBytes, words, escapedBytes),
  };
}

/**
 * `classify`: one scan for the tokens and the words together, where a file that holds neither (most
 * files) took two (issue 40, item 8). The tokens come first in the pattern, so at the place of the
 * first match a token is preferred: a match that is a token's text is a token, and a match that is
 * not is a word with no token starting before it, so the tokens are looked for again from there.
 */
function classifier(
  tokenBytes: readonly string[],
  inBytes: RegExp,
  words: readonly string[],
  escapedBytes: (buf: Buffer, read: string) => boolean,
): Prefilter['classify'] {
  if (words.length === 0) return (buf, read) => (inBytes.test(read) || escapedBytes(buf, read) ? PASSES : NEITHER);
  const either = new RegExp([...tokenBytes, ...words].map(escapeRegExp).join('|'));
  const isToken = new Set(tokenBytes);
  const tokensFrom = new RegExp(inBytes.source, 'g');
  return (buf, read) => {
    const m = either.exec(read);
    if (m === null) return escapedBytes(buf, read) ? PASSES : NEITHER;
    if (isToken.has(m[0])) return PASSES;
    tokensFrom.lastIndex = m.index;
    return tokensFrom.test(read) || escapedBytes(buf, read) ? PASSES : NAMES_WORD;
  };
}

export function mayMatter(text: string, extraTokens: readonly string[] = []): boolean {
  return makePrefilter(extraTokens).text(text);
}

/** `mayMatter` on a file's bytes when they are plain UTF-8 (see `Prefilter.bytes`). */
export function mayMatterBytes(buf: Buffer, extraTokens: readonly string[] = []): boolean {
  return makePrefilter(extraTokens).bytes(buf);
}

/** Bytes whose text is exactly `buf.toString('utf8')` and that decodeSource accepts as they are. */
export function isPlainUtf8(buf: Buffer): boolean {
  return !hasBom(buf) && isUtf8(buf) && !buf.includes(0);
}

/** `isPlainUtf8`, given the bytes read as latin1 already: the NUL looked for in that string. */
export function isPlainUtf8Read(buf: Buffer, latin1: string): boolean {
  return !hasBom(buf) && !latin1.includes('\0') && isUtf8(buf);
}

const hasBom = (buf: Buffer): boolean => buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
