import { describe, expect, it } from 'vitest';
import { scanRepoSync } from '../../src/scan/index.js';
import { makeTempDir, removeDir, writeFiles } from '../helpers/temp-repo.js';
import { agentLoading } from './unlisted-tool-module.js';

/*
 * Issue 40 item 4 ("no false green"), left by session 31's "doors across modules": the cap on the
 * listed barrels one scan follows was silent when reached (what lay behind the next barrel was never
 * read), and `ns['github']` was not followed as `ns.github` is.
 */

describe('listed barrels past what one scan follows', () => {
  /** A chain of `n` listed barrels naming no SDK, the last re-exporting the git-ignored module with a raw tool. */
  const chain = (n: number): Record<string, string> => {
    const files: Record<string, string> = agentLoading('[]', "import { wire } from './chain/b0.js';");
    for (let i = 0; i < n; i++) files[`src/chain/b${i}.ts`] = i + 1 < n ? `export * from './b${i + 1}.js';\n` : "export * from '../gen/wire.js';\n";
    return files;
  };
  /** One scan of the tree: whether the unlisted module was read (its tool found) and the unreadable-file messages. */
  const scanOf = (files: Record<string, string>) => {
    const root = makeTempDir('red31-chain-');
    try {
      writeFiles(root, files);
      const scan = scanRepoSync({ root });
      const wire = scan.files.find((f) => f.file === 'src/gen/wire.ts');
      return { tool: (wire?.sdkToolCalls.length ?? 0) > 0, unread: (scan.unreadable ?? []).map((u) => `${u.file}: ${u.message}`) };
    } finally {
      removeDir(root);
    }
  };

  it('300 barrels in a chain: the 257th is named, as not followed (before: silent, the tool behind it unread)', () => {
    expect(scanOf(chain(300))).toEqual({
      tool: false,
      unread: [expect.stringMatching(/^src\/chain\/b256\.ts: the file is a listed module naming no SDK .* after the 256 such modules .* not followed/)],
    });
  });

  it('silent: 256 barrels in a chain, all followed, the tool behind them read', () => {
    expect(scanOf(chain(256))).toEqual({ tool: true, unread: [] });
  });
});
