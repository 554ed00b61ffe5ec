/** A replacement of `[start, end)` in a file's text by `text` (an insertion when start === end). */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits; every byte outside them stays. Throws on overlap (a bug). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error(`overlapping edits at offset ${e.start}`);
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/** The end of the line `pos` is on, past its line break (or the text's end). */
export function endOfLineAfter(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  return nl < 0 ? text.length : nl + 1;
}

/**
 * The range that removes a node (`[start, end)`, e.g. an object property or a statement) with its
 * separator: the whole line(s) when it stands alone on them, else the node and the comma after it
 * (or before it, when it is the last one written inline).
 */
export function removalRange(text: string, start: number, end: number, separator: ',' | ';' | '' = ','): [number, number] {
  let after = end;
  while (isBlank(text[after])) after++;
  const hasSeparator = separator !== '' && text[after] === separator;
  if (hasSeparator) after++;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const aloneBefore = text.slice(lineStart, start).trim() === '';
  let eol = after;
  while (isBlank(text[eol])) eol++;
  if (text[eol] === '\r' && text[eol + 1] === '\n') eol++;
  const aloneAfter = eol >= text.length || text[eol] === '\n';
  if (aloneBefore && aloneAfter) return [lineStart, Math.min(text.length, eol + 1)];
  if (hasSeparator || separator === '') {
    while (isBlank(text[after])) after++;
    return [start, after];
  }
  // Last one inline without a separator after it: take the separator before it.
  let before = start - 1;
  while (before >= 0 && /\s/.test(text[before]!)) before--;
  if (text[before] === ',') return [before, end];
  return [start, end];
}
