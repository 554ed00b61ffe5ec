import type { Parsed } from './parse.js';
import { parseSource } from './parse.js';
import { exportedConstString, topLevelConstStrings } from './syntax.js';

/*
 * The SDK's answer by a key a module exports (issue 40 item 4): `state[APPROVE](item)` with
 * `export const APPROVE = 'approve'` (or `Verdict.Approve` of an exported enum, `KEYS.yes` of an
 * exported `as const` object) in another module. The answering file need not hold any token of the
 * prefilter, so it would never be parsed: the names such modules export become tokens, and a file
 * that names one is parsed too.
 */

const ANSWER_METHODS = new Set(['approve', 'approveTool', 'reject', 'rejectTool']);

/** The names a module exports whose string (or one of whose members' strings) is an answer method's name. */
export function answerKeyExports(parsed: Parsed, text: string): string[] {
  // most modules name no answer at all: not read
  if (!text.includes('approve') && !text.includes('reject')) return [];
  const out = new Set<string>();
  for (const [key, value] of topLevelConstStrings(parsed.sf)) {
    if (ANSWER_METHODS.has(value) && exportedConstString(parsed.sf, key) === value) out.add(key.split('.')[0]!);
  }
  return [...out];
}

/**
 * Parses every file not parsed yet whose text names a key one of the parsed modules exports
 * (`answerKeyExports`); the names are added to `seenTokens` (a file edited later is judged by them
 * too). One round: a module re-exporting such a key under the same name holds the name itself.
 */
export function answerKeyRound(
  parsed: Map<string, Parsed>,
  texts: ReadonlyMap<string, string | Buffer>,
  textOf: (abs: string) => string | undefined,
  seenTokens: Set<string>,
): void {
  const fresh: string[] = [];
  for (const [abs, file] of parsed) {
    for (const name of answerKeyExports(file, textOf(abs) ?? '')) {
      if (seenTokens.has(name)) continue;
      seenTokens.add(name);
      fresh.push(name);
    }
  }
  if (fresh.length === 0) return;
  for (const [abs, text] of texts) {
    if (!parsed.has(abs) && fresh.some((t) => text.includes(t))) parsed.set(abs, parseSource(abs, textOf(abs)!));
  }
}
