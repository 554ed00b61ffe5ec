import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/engine.js';
import { listRepo } from '../../src/scan/list.js';
import { isPlainUtf8, makePrefilter, mayMatterBytes } from '../../src/scan/prefilter.js';
import { DOOR_WORD } from '../../src/scan/door-words.js';
import { PLAIN_PARSE, PLAIN_SKIP, PLAIN_SKIP_DOOR_WORD } from '../../src/scan/read.js';
import { readRepoHere } from '../../src/scan/read-here.js';
import type { PendingRepoRead } from '../../src/scan/parallel-read.js';
import type { RepoRead } from '../../src/scan/read.js';
import { scanRepo } from '../../src/scan/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { REPO_ROOT } from '../helpers/paths.js';

// Start-up (issue 10): check lists and reads the repo on a worker thread while the main thread loads
// the compiler. The thread's script is built (tsc's ES module in dist/scan, the bundle's CommonJS
// file in dist/bin; `npm test` builds first), so the tests start it from the built module and
// check it against the in-thread listing, reads, scan and check, which must be the very same.

type Start = (options: { root: string; paths?: string[] }, worker?: { file?: URL }) => PendingRepoRead;
let startRepoRead: Start;
beforeAll(async () => {
  ({ startRepoRead } = (await import(pathToFileURL(path.join(REPO_ROOT, 'dist/scan/parallel-read.js')).href)) as { startRepoRead: Start });
});

const SCRIPTS = {
  'tsc output (ES module)': pathToFileURL(path.join(REPO_ROOT, 'dist/scan/read-worker.js')),
  'CLI bundle (CommonJS)': pathToFileURL(path.join(REPO_ROOT, 'dist/bin/read-worker.cjs')),
} as const;

const SDK = `import { tool } from '@openai/agents';\nexport const t = tool({ name: 'x' });\n`;

function write(root: string, rel: string, text: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

/** Files of every kind the scanner meets: plain, ignored, UTF-16, BOM, undecodable, a folder named like a file, a tracked file deleted. */
function layout(root: string, git: boolean): void {
  write(root, '.gitignore', 'ignored/\n');
  write(root, 'src/a.ts', SDK);
  write(root, 'src/plain.ts', 'export const x = 1;\n');
  // names no SDK, writes a door word: the read says so for the door-writer search (session 30)
  write(root, 'src/writer.ts', "import { github } from './servers';\ngithub.providerData = {};\n");
  write(root, 'ignored/c.ts', SDK);
  write(root, '.hidden/e.ts', SDK);
  write(root, 'src/utf16.ts', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(SDK.replace("'x'", "'u16'"), 'utf16le')]));
  write(root, 'src/bom.ts', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SDK.replace("'x'", "'bom'"))]));
  write(root, 'src/latin1.ts', Buffer.from(`// caf\xe9\n${SDK}`, 'latin1'));
  write(root, 'src/empty.ts', '');
  write(root, 'package.json', JSON.stringify({ name: 'p', imports: { '#sdk': '@openai/agents' } }));
  write(root, 'src/alias.ts', "import { tool } from '#sdk';\nexport const t = tool({ name: 'alias' });\n");
  mkdirSync(path.join(root, 'src/folder.ts'), { recursive: true });
  write(root, 'src/folder.ts/inner.ts', SDK);
  if (git) {
    write(root, 'src/gone.ts', SDK);
    const run = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'pipe' });
    run('init', '-q');
    run('add', '-A');
    run('add', '-f', 'ignored/c.ts');
    rmSync(path.join(root, 'src/gone.ts'));
  }
}

/** The read as plain data: the listing and each file's bytes (hex) or error. */
function plain(read: RepoRead): unknown {
  return { listing: read.listing, files: [...read.files].map(([f, r]) => [f, Buffer.isBuffer(r) ? r.toString('hex') : r]) };
}

function inThread(root: string, paths?: string[]): unknown {
  const listing = listRepo({ root, ...(paths ? { paths } : {}) });
  const files = new Map<string, Buffer | { code: string }>();
  for (const f of listing.files) {
    try {
      files.set(f, readFileSync(f));
    } catch (error) {
      files.set(f, { code: (error as NodeJS.ErrnoException).code ?? 'error' });
    }
  }
  return plain({ listing, files });
}

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

describe('the parallel reader on a repo with no file worth parsing', () => {
  it('names no candidate, so check does not load the compiler for it', async () => {
    const root = path.join(os.tmpdir(), `ctrlrun-parallel-read-none-${process.pid}`);
    roots.push(root);
    write(root, 'src/plain.ts', 'export const x = 1;\n');
    write(root, 'src/utf16.ts', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('export const y = 2;\n', 'utf16le')]));
    const pending = startRepoRead({ root }, { file: SCRIPTS['CLI bundle (CommonJS)'] });
    expect(await pending.candidates()).toEqual([]);
    expect((await pending.result())!.listing.files).toHaveLength(2);
  });
});

for (const git of [false, true]) {
  describe(`the parallel reader ${git ? 'in a git work tree' : 'outside git'}`, () => {
    // Outside the repository's own tree, so that a git layout is a work tree of its own.
    const root = path.join(os.tmpdir(), `ctrlrun-parallel-read-${git ? 'git' : 'plain'}-${process.pid}`);
    roots.push(root);
    mkdirSync(root, { recursive: true });
    layout(root, git);

    for (const [build, file] of Object.entries(SCRIPTS)) {
      it(`${build}: lists and reads exactly what the scan would list and read in-thread`, async () => {
        const pending = startRepoRead({ root }, { file });
        const read = await pending.result();
        // before the whole read: the first two files the scan will certainly parse
        const certain = listRepo({ root }).files.filter((f) => {
          const bytes = existsSync(f) && statSync(f).isFile() ? readFileSync(f) : undefined;
          return bytes !== undefined && isPlainUtf8(bytes) && mayMatterBytes(bytes, ['#sdk']);
        });
        expect(await pending.candidates()).toEqual(certain.slice(0, 2));
        expect(certain.length).toBeGreaterThan(2);
        expect(read).toBeDefined();
        expect(plain(read!)).toEqual(inThread(root));
        // the cases the layout is there for
        expect(read!.listing.files).toContain(path.join(root, '.hidden/e.ts'));
        expect(read!.listing.files.includes(path.join(root, 'ignored/c.ts'))).toBe(git);
        if (git) expect(read!.files.get(path.join(root, 'src/gone.ts'))).toEqual({ code: 'ENOENT' });
      });
    }

    it("the read on the calling thread is the thread's own: listing, bytes or error codes, tokens and verdicts", async () => {
      const thread = (await startRepoRead({ root }, { file: SCRIPTS['CLI bundle (CommonJS)'] }).result())!;
      const here = readRepoHere({ root });
      expect(plain(here)).toEqual(plain(thread));
      expect(here.prefilter).toEqual(thread.prefilter);
      expect(here.prefilter!.verdicts.get(path.join(root, 'src/alias.ts'))).toBe(PLAIN_PARSE);
      expect(here.files.get(path.join(root, 'src/folder.ts'))).toBeUndefined();
      if (git) expect(here.files.get(path.join(root, 'src/gone.ts'))).toEqual({ code: 'ENOENT' });
      const paths = [path.join(root, 'src/folder.ts'), path.join(root, 'ignored/c.ts')];
      expect(plain(readRepoHere({ root, paths }))).toEqual(inThread(root, paths));
    });

    it('only the given paths are listed and read', async () => {
      const paths = [path.join(root, 'src/folder.ts'), path.join(root, 'ignored/c.ts')];
      const read = await startRepoRead({ root, paths }, { file: SCRIPTS['CLI bundle (CommonJS)'] }).result();
      expect(plain(read!)).toEqual(inThread(root, paths));
      expect(read!.listing.files).toEqual([path.join(root, 'ignored/c.ts'), path.join(root, 'src/folder.ts/inner.ts')]);
    });

    it("the thread's prefilter verdicts are the scan's own, with the repo's alias tokens", async () => {
      const read = (await startRepoRead({ root }, { file: SCRIPTS['CLI bundle (CommonJS)'] }).result())!;
      expect(read.prefilter!.tokens).toEqual(['#sdk']);
      const own = makePrefilter(['#sdk']);
      const expected = new Map<string, number>();
      for (const [file, bytes] of read.files)
        if (Buffer.isBuffer(bytes) && isPlainUtf8(bytes))
          expected.set(file, own.bytes(bytes) ? PLAIN_PARSE : DOOR_WORD.test(bytes.toString('latin1')) ? PLAIN_SKIP_DOOR_WORD : PLAIN_SKIP);
      expect(read.prefilter!.verdicts).toEqual(expected);
      expect(read.prefilter!.verdicts.get(path.join(root, 'src/alias.ts'))).toBe(PLAIN_PARSE);
      expect(read.prefilter!.verdicts.get(path.join(root, 'src/plain.ts'))).toBe(PLAIN_SKIP);
      expect(read.prefilter!.verdicts.get(path.join(root, 'src/writer.ts'))).toBe(PLAIN_SKIP_DOOR_WORD);
      expect(read.prefilter!.verdicts.has(path.join(root, 'src/utf16.ts'))).toBe(false);
    });

    it('verdicts made with other tokens than the scan uses are not trusted', async () => {
      const read = (await startRepoRead({ root }, { file: SCRIPTS['CLI bundle (CommonJS)'] }).result())!;
      const skipAll = new Map([...read.prefilter!.verdicts.keys()].map((f) => [f, PLAIN_SKIP] as const));
      const own = await scanRepo({ root });
      expect(await scanRepo({ root, read: { ...read, prefilter: { tokens: ['#other'], verdicts: skipAll } } })).toEqual(own);
      // and trusted with the same tokens (so the check above means something)
      expect(
        (await scanRepo({ root, read: { ...read, prefilter: { tokens: ['#sdk'], verdicts: skipAll } } })).files.filter((f) => f.sdkToolCalls.length > 0).length,
      ).toBeLessThan(own.files.filter((f) => f.sdkToolCalls.length > 0).length);
    });

    it('a scan over the read is the scan that reads for itself (the generated module left out)', async () => {
      const generatedModule = path.join(root, 'src/a.ts');
      const read = await startRepoRead({ root }, { file: SCRIPTS['CLI bundle (CommonJS)'] }).result();
      const own = await scanRepo({ root, generatedModule });
      const ahead = await scanRepo({ root, generatedModule, read: read! });
      expect(ahead).toEqual(own);
      expect(own.files.map((f) => f.file)).not.toContain('src/a.ts');
      expect(own.files.flatMap((f) => f.sdkToolCalls.map((c) => c.name))).toEqual(expect.arrayContaining(['u16', 'bom', 'alias']));
      expect((own.unreadable ?? []).map((u) => u.file)).toContain('src/latin1.ts');
    });
  });
}

describe('check with the repo read ahead', () => {
  const dir = copyFixture('refund-desk', 'parallel-read-');
  roots.push(dir);
  write(dir, 'src/more.ts', `${SDK}export const y = tool({ name: 'lookup_charge', execute: async () => 'x' });\n`);

  it('finds exactly what check finds reading in-thread', async () => {
    const debug: string[] = [];
    const own = await runCheck({ cwd: dir, onDebug: (line) => debug.push(line) });
    expect(debug).toEqual([`the repo was listed and read on the main thread (${own.filesConsidered} files)`]);
    const ahead = startRepoRead({ root: dir }, { file: SCRIPTS['CLI bundle (CommonJS)'] });
    const parallel = await runCheck({ cwd: dir, ahead });
    expect(await ahead.result()).toBeDefined();
    expect(parallel).toEqual(own);
    expect(own.findings.map((f) => f.ruleId)).toContain('unprotected-tool');
  });

  it('a thread that fails leaves check reading in-thread, with the same findings', async () => {
    const broken = path.join(dir, 'broken-worker.cjs');
    writeFileSync(broken, "throw new Error('the thread fails');\n");
    const ahead = startRepoRead({ root: dir }, { file: pathToFileURL(broken) });
    expect(await ahead.result()).toBeUndefined();
    expect(ahead.failure()).toContain('the thread fails');
    const own = await runCheck({ cwd: dir });
    expect(await runCheck({ cwd: dir, ahead })).toEqual(own);
  });

  it('a read of other paths than the check scans is not used', async () => {
    const ahead = startRepoRead({ root: dir, paths: [path.join(dir, 'src/more.ts')] }, { file: SCRIPTS['CLI bundle (CommonJS)'] });
    const own = await runCheck({ cwd: dir });
    expect(await runCheck({ cwd: dir, ahead })).toEqual(own);
    expect(own.filesConsidered).toBeGreaterThan(1);
  });
});

describe('the reading thread and Node’s compile cache', () => {
  // A thread turns Node's compile cache on from NODE_COMPILE_CACHE only: started without it, the
  // thread compiled its script anew on every run (issue 40, item 8). Node 20 has no such cache.
  const hasCache = typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  const entries = (dir: string): number =>
    existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => statSync(path.join(dir, String(f))).isFile()).length : 0;

  it.skipIf(!hasCache)('compiles the thread’s script into the process’s cache', () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-worker-cache-'));
    try {
      // a thread script of its own: it answers nothing and exits, so the read gives up and returns
      const script = path.join(work, 'thread.cjs');
      writeFileSync(script, 'module.exports = function unused() { return 1; };\n');
      const child = (start: boolean, cache: string): void => {
        execFileSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `import module from 'node:module';
             import { pathToFileURL } from 'node:url';
             module.enableCompileCache(${JSON.stringify(cache)});
             const { startRepoRead } = await import(${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'dist/scan/parallel-read.js')).href)});
             if (${start}) await startRepoRead({ root: ${JSON.stringify(work)} }, { file: pathToFileURL(${JSON.stringify(script)}) }).result();`,
          ],
          { env: { ...process.env, NODE_COMPILE_CACHE: '' } },
        );
      };
      child(false, path.join(work, 'without'));
      child(true, path.join(work, 'with'));
      // the same modules, plus the thread's script
      expect(entries(path.join(work, 'with'))).toBe(entries(path.join(work, 'without')) + 1);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
