import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { typeCheck } from '../helpers/typecheck.js';
import { committedRepo, START_ESM, startRefund, TS_AGENT, TSCONFIG_NODENEXT, userLoop } from './loop-helpers.js';

/**
 * Issue 21: a public app names its tools through `export const TOOL_NAMES = { … } as const` in a
 * module of its own (`name: TOOL_NAMES.refund`). The loop maps and rewrites such a tool, check goes
 * green, the app type-checks, and the call pauses for a person. Needs `npm run build`.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('tool names read off an `as const` object (issue 21)', () => {
  it('init maps the tool, the codemod rewrites it, check is green, and the app starts', async () => {
    const dir = committedRepo(dirs, 'named-tools-', {
      'package.json': JSON.stringify({ name: 'named-tools', private: true, type: 'module' }),
      'tsconfig.json': TSCONFIG_NODENEXT,
      'src/toolNames.ts': "export const TOOL_NAMES = { refund: 'refund' } as const;\n",
      'src/agent.ts': TS_AGENT.replace("import { z } from 'zod';", "import { z } from 'zod';\nimport { TOOL_NAMES } from './toolNames.js';").replace(
        "name: 'refund'",
        'name: TOOL_NAMES.refund',
      ),
      'src/start.ts': START_ESM('./agent.js'),
    });
    const said = await userLoop(dir);
    expect(said).toContain('1 tools rewritten');
    expect(readFileSync(path.join(dir, 'ctrlrun.tools.yaml'), 'utf8')).toContain('tool: refund');
    expect(readFileSync(path.join(dir, 'src/agent.ts'), 'utf8')).toContain("protectedTool('refund', {\n  name: TOOL_NAMES.refund,");
    expect(typeCheck(dir)).toEqual([]);
    expect(await startRefund(dir)).toEqual({ interruptions: ['refund'], ran: [] });
  }, 120_000);
});
