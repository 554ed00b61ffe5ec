import { describe, expect, it } from 'vitest';
import type { ParamSchema } from '../../src/generate/tool-schemas.js';
import { sentArguments } from '../../src/policy-test/witness-sent.js';

const loc = { file: 'src/tools.ts', line: 1, column: 1 };
const limit = (fill: ParamSchema['fill']): ParamSchema => ({
  name: 'limit',
  type: 'integer',
  required: true,
  nullable: false,
  lo: 1n,
  hi: 500n,
  loc,
  ...(fill ? { fill } : {}),
});

/** The example call of a diff region as the model sends it: only a value a fill-in alone gives is left out. */
describe('sentArguments', () => {
  it('leaves out a value only the default gives (0 for .min(1).default(0)), keeping the others', () => {
    const params = new Map([['limit', limit({ absent: { value: 0, from: 'default' as const } })]]);
    expect(sentArguments({ limit: 0, other: 'x' }, params)).toEqual({ other: 'x' });
  });

  it('keeps a default the schema accepts when sent, a value other than the default, and a .catch() that does not fill a missing value', () => {
    expect(sentArguments({ limit: 5 }, new Map([['limit', limit({ absent: { value: 5, from: 'default' as const } })]]))).toBeUndefined();
    expect(sentArguments({ limit: 7 }, new Map([['limit', limit({ absent: { value: 0, from: 'default' as const } })]]))).toBeUndefined();
    expect(sentArguments({ limit: 0 }, new Map([['limit', limit({ invalid: { value: 0 } })]]))).toBeUndefined();
    expect(sentArguments({ limit: 0 }, new Map([['limit', limit(undefined)]]))).toBeUndefined();
    // a prefault's value is parsed as if sent: a 0 the schema refuses never reaches the policy so
    expect(sentArguments({ limit: 0 }, new Map([['limit', limit({ absent: { value: 0, from: 'prefault' as const } })]]))).toBeUndefined();
  });

  it('reads an integer the procedure holds as a bigint as the same value', () => {
    const params = new Map([['limit', limit({ absent: { value: 0, from: 'default' as const } })]]);
    expect(sentArguments({ limit: 0n as unknown as number }, params)).toEqual({});
  });
});
