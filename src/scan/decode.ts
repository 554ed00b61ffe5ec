/**
 * Source text from bytes: UTF-8 (with or without a byte-order mark) and UTF-16 LE/BE with a BOM
 * are decoded; anything else that is not valid UTF-8 is an error the caller reports.
 */
export type Decoded = { text: string; encoding: SourceEncoding } | { error: string };

/** How a source file's bytes hold its text; the codemod writes a file back the way it was. */
export type SourceEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function decodeSource(buf: Buffer): Decoded {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(buf.subarray(2)), encoding: 'utf16le' };
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(buf.subarray(2)), encoding: 'utf16be' };
  const start = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  // Fast path: Buffer#toString replaces invalid sequences with U+FFFD; only a text holding one
  // (rare) is decoded again strictly to tell a real U+FFFD from bad bytes.
  const text = buf.toString('utf8', start);
  if (text.includes('\uFFFD')) {
    try {
      fatalUtf8.decode(buf.subarray(start));
    } catch {
      return {
        error: utf16Guess(buf)
          ? 'looks like UTF-16 without a byte-order mark, which cannot be decoded safely'
          : 'is not valid UTF-8 or UTF-16 (with a byte-order mark)',
      };
    }
  }
  if (start === 0 && text.includes('\u0000') && utf16Guess(buf)) {
    return { error: 'looks like UTF-16 without a byte-order mark, which cannot be decoded safely' };
  }
  return { text, encoding: start === 3 ? 'utf8-bom' : 'utf8' };
}

/** The bytes of `text` in `encoding`, byte-order mark included where the encoding has one. */
export function encodeSource(text: string, encoding: SourceEncoding): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(text, 'utf8');
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
  }
}

/** Every other byte zero in the first bytes: UTF-16 text of mostly ASCII. */
function utf16Guess(buf: Buffer): boolean {
  const n = Math.min(buf.length, 200);
  if (n < 4) return false;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i++) if (buf[i] === 0) i % 2 === 0 ? evenZeros++ : oddZeros++;
  return evenZeros > n / 4 || oddZeros > n / 4;
}
