import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ParamSchema } from '../../src/generate/tool-schemas.js';
import { replacedArguments, sentArguments } from '../../src/policy-test/witness-sent.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { makeTempDir, removeDir } from '../helpers/temp-repo.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

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

/**
 * A value only a `.catch()` gives (`.min(1).default(5).catch(0)`: 0): leaving the argument out gives
 * the default, so the call sends a value the schema refuses, and the tool puts 0 in its place.
 */
describe('replacedArguments', () => {
  const caught = limit({ absent: { value: 5, from: 'default' as const }, invalid: { value: 0 } });

  it('names a value only the catch gives, and zod hands the body that value for the call sent so', () => {
    expect(replacedArguments({ limit: 0, other: 'x' }, new Map([['limit', caught]]))).toEqual(['limit']);
    const schema = z.object({ limit: z.number().int().min(1).max(500).default(5).catch(0) });
    expect(schema.parse({ limit: 0 })).toEqual({ limit: 0 });
    expect(schema.parse({})).toEqual({ limit: 5 });
  });

  it('names none for a value the schema accepts, a value leaving out gives, or another value', () => {
    expect(replacedArguments({ limit: 5 }, new Map([['limit', limit({ invalid: { value: 5 } })]]))).toEqual([]);
    expect(replacedArguments({ limit: 0 }, new Map([['limit', limit({ absent: { value: 0, from: 'catch' as const }, invalid: { value: 0 } })]]))).toEqual([]);
    expect(replacedArguments({ limit: 7 }, new Map([['limit', caught]]))).toEqual([]);
    expect(replacedArguments({ limit: 0 }, new Map([['limit', limit(undefined)]]))).toEqual([]);
  });

  it('diff says how the example call is sent and what the tool does with it', async () => {
    const dir = makeTempDir('witness-catch-');
    dirs.push(dir);
    cpSync(path.join(FIXTURES, 'policy-test/tool-default-outside'), dir, { recursive: true });
    const tools = path.join(dir, 'src/tools.ts');
    const schema = 'z.number().int().min(1).max(500).default(5).catch(0)';
    writeFileSync(tools, readFileSync(tools, 'utf8').replace('z.number().int().min(1).max(500).default(0).optional()', schema));
    expect(readFileSync(tools, 'utf8')).toContain(schema);
    const r = await cli(['diff', 'base.yaml'], { cwd: dir });
    expect(r.stdout).toContain(
      'e.g. {"limit":0} (sent as {"limit":0}: the tool refuses limit 0 and puts its .catch() value 0 in its place): approve (rule[1]) → allow (rule[0])',
    );
    const json = JSON.parse((await cli(['diff', 'base.yaml', '--format', 'json'], { cwd: dir })).stdout);
    expect(json.actions[0].regions[0].witness).toEqual({ args: { limit: 0 }, replaced: ['limit'] });
  });
});
