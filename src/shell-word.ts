/**
 * A word as a POSIX shell reads it as one argument, for a hint's command line to paste: bare when
 * it holds only characters no shell treats specially, else single-quoted (`'\''` for a quote inside).
 */
export function shellWord(word: string): string {
  return /^[\w./@-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
