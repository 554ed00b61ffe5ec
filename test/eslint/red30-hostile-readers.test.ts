import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith, reported } from './helpers.js';

/**
 * test/check/red30-hostile-readers.test.ts through the plugin: a chain deeper than the readers walk,
 * a door passed 10,000 times by a function that passes it to itself. No internal error; check's
 * findings at check's places.
 */
const HEAD = [
  "import type { Shell } from '@openai/agents';",
  "import { protectShellTool } from './ctrlrun.generated.js';",
  'declare const shell: Shell;',
  'declare const other: Shell;',
  "const shellTool = protectShellTool('host.shell', { shell });",
].join('\n');

describe('hostile trees for the readers, in ESLint', () => {
  const cwd = copyFixture('check/open-doors/repo', 'eslint-red30-');
  afterAll(() => removeDir(cwd));

  it("a 3,000-term string stops at ESLint's parser; the 10,000 calls give the write", async () => {
    writeFileSync(path.join(cwd, 'src/deep.ts'), `${HEAD}\nconst s = ${"'x' + ".repeat(3000)}'y';\nexport { s };\n`);
    const calls = Array.from({ length: 10_000 }, (_, i) => `f(${i % 2 ? 'shellTool' : String(i)});`).join('\n');
    writeFileSync(path.join(cwd, 'src/calls.ts'), `${HEAD}\nfunction f(t: any): any { t.shell = other; return f(t); }\n${calls}\n`);
    const messages = reported(await eslintWith(cwd).lintFiles(['src/deep.ts', 'src/calls.ts']), cwd).filter(
      (m) => m.ruleId !== `${NAMESPACE}/tracing-sensitive-data` && m.line !== 1,
    );
    expect(messages.map((m) => `${m.file}:${m.line}:${m.column} ${m.ruleId}`)).toEqual([
      `src/calls.ts:6:27 ${NAMESPACE}/invoke-replaced`,
      // ESLint's own parser gives up on it before the plugin runs (its message, not the plugin's)
      'src/deep.ts:undefined:undefined null',
    ]);
    expect(messages.find((m) => m.file === 'src/deep.ts')?.message).toMatch(/^Parsing error: /);
    expect(messages.map((m) => m.message).join('\n')).not.toMatch(/internal error|\bat \S+:\d+:\d+/);
  });
});
