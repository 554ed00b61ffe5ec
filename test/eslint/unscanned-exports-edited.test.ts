import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, removeDir } from '../helpers/temp-repo.js';
import { eslintWith } from './helpers.js';

/**
 * Session 32 left this: check scans on demand a module it does not scan (it names neither the SDK
 * nor the generated module) to tell what its export is, and an ESLint session kept that scan after
 * an edit of the module. The session's contract is that other files are seen as ESLint last linted
 * them, so an edit that makes the export a server (or no door) changes the writer's finding.
 */
const FACTORY = [
  "import { MCPServerStdio } from '@openai/agents';",
  "import { protectMcpServer } from './ctrlrun.generated.js';",
  "export const makeServer = () => protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  '',
].join('\n');
const SERVER = ["import { makeServer } from './factory33.js';", 'export const gh = makeServer();', ''].join('\n');
const PLAIN = ['export const gh = { retries: 3 };', ''].join('\n');
// a module that uses the SDK (scanned) whose `gh` is no door at first
const SDK_PLAIN = ["import { Agent } from '@openai/agents';", 'export const gh = { retries: 3 };', "export const agent = new Agent({ name: 'a' });", ''].join(
  '\n',
);
// a scanned module handing on another module's `gh`
const reexport = (from: string): string =>
  ["import { Agent } from '@openai/agents';", `export { gh } from '${from}';`, "export const agent = new Agent({ name: 'a' });", ''].join('\n');
const WRITER = ["import { gh } from './servers33.js';", 'gh.toolInputGuardrails = [];', ''].join('\n');
const RULE = `${NAMESPACE}/mcp-server-unguarded`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

function repo(servers: string): { dir: string; servers: string; writer: string } {
  const dir = copyFixture('check/open-doors/repo', 'eslint-unscanned-edited-');
  dirs.push(dir);
  writeFileSync(path.join(dir, 'src/factory33.ts'), FACTORY);
  writeFileSync(path.join(dir, 'src/servers33.ts'), servers);
  writeFileSync(path.join(dir, 'src/ops33.ts'), WRITER);
  return { dir, servers: path.join(dir, 'src/servers33.ts'), writer: path.join(dir, 'src/ops33.ts') };
}

/** The module's new text linted, then saved with a later mtime (an editor's save). */
async function edit(eslint: ReturnType<typeof eslintWith>, file: string, text: string): Promise<void> {
  await eslint.lintText(text, { filePath: file });
  writeFileSync(file, text);
  const t = new Date(Date.now() + 5000);
  utimesSync(file, t, t);
}

async function writerFindings(eslint: ReturnType<typeof eslintWith>, writer: string): Promise<string[]> {
  const [result] = await eslint.lintText(readFileSync(writer, 'utf8'), { filePath: writer });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => `${m.line}:${m.column}`);
}

describe('a module check does not scan, edited during an ESLint session', () => {
  it('controls: a session begun with each text', async () => {
    const server = repo(SERVER);
    expect(await writerFindings(eslintWith(server.dir), server.writer)).toEqual(['2:1']);
    const plain = repo(PLAIN);
    expect(await writerFindings(eslintWith(plain.dir), plain.writer)).toEqual([]);
  });

  it('reports the write once the export becomes a server', async () => {
    const { dir, servers, writer } = repo(PLAIN);
    const eslint = eslintWith(dir);
    expect(await writerFindings(eslint, writer)).toEqual([]);
    await edit(eslint, servers, SERVER);
    expect(await writerFindings(eslint, writer)).toEqual(['2:1']);
  });

  it('drops the finding once the export is a plain object again', async () => {
    const { dir, servers, writer } = repo(SERVER);
    const eslint = eslintWith(dir);
    expect(await writerFindings(eslint, writer)).toEqual(['2:1']);
    await edit(eslint, servers, PLAIN);
    expect(await writerFindings(eslint, writer)).toEqual([]);
  });

  it('reports the write once a scanned module exports the server the writer names', async () => {
    const { dir, servers, writer } = repo(SDK_PLAIN);
    const eslint = eslintWith(dir);
    expect(await writerFindings(eslint, writer)).toEqual([]);
    await edit(eslint, servers, FACTORY.replace('export const makeServer = () =>', 'export const gh ='));
    expect(await writerFindings(eslint, writer)).toEqual(['2:1']);
  });

  it('follows the new re-export of a scanned module', async () => {
    const { dir, servers, writer } = repo(reexport('./plain33.js'));
    writeFileSync(path.join(dir, 'src/plain33.ts'), PLAIN);
    writeFileSync(path.join(dir, 'src/made33.ts'), SERVER);
    const eslint = eslintWith(dir);
    expect(await writerFindings(eslint, writer)).toEqual([]);
    await edit(eslint, servers, reexport('./made33.js'));
    expect(await writerFindings(eslint, writer)).toEqual(['2:1']);
  });
});
