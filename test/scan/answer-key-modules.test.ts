import { describe, expect, it } from 'vitest';
import { answerKeyExports } from '../../src/scan/answer-key-modules.js';
import { parseSource } from '../../src/scan/parse.js';

/** The names a module exports holding an answer method's name: the tokens that get an answering file parsed. */
describe('answerKeyExports', () => {
  const exportsOf = (...l: string[]) => {
    const text = `${l.join('\n')}\n`;
    return answerKeyExports(parseSource('/repo/src/keys.ts', text), text);
  };

  it('an exported const, enum or `as const` object holding an answer (also by `export { }`)', () => {
    expect(
      exportsOf(
        "export const APPROVE = 'approve';",
        "export enum Verdict { Approve = 'approve' }",
        "export const KEYS = { no: 'rejectTool' } as const;",
        "const LATER = 'reject';",
        'export { LATER };',
      ).sort(),
    ).toEqual(['APPROVE', 'KEYS', 'LATER', 'Verdict']);
  });

  it('not one holding another word, nor one the module does not export', () => {
    expect(
      exportsOf(
        "export const YES = 'yes approve';",
        "export enum Hold { Wait = 'hold' }",
        "const LOCAL = 'approve';",
        "enum Inner { Approve = 'approve' }",
        "export const loose = { yes: 'approve' };",
      ),
    ).toEqual([]);
  });
});
