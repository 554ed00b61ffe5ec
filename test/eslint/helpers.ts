import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { runCheck } from '../../src/check/engine.js';
import type { Finding } from '../../src/check/types.js';
import { createPlugin, type CtrlrunPlugin, eslintMessage, NAMESPACE } from '../../src/eslint/index.js';
import { copyFixture, writeFiles } from '../helpers/temp-repo.js';

/** Source files as a user's flat config names them. */
export const SOURCE_FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];

/**
 * An ESLint instance as a user's `eslint.config.js` would make it: the plugin's recommended
 * config, with typescript-eslint's parser (`typescript: false`: ESLint's own parser, plain
 * JavaScript only). `overrideConfigFile: true`: no config file of this repo is read. `fix`: as
 * `eslint --fix` (the results hold the fixed text).
 */
export function eslintWith(cwd: string, options: { plugin?: CtrlrunPlugin; typescript?: boolean; extra?: Linter.Config[]; fix?: boolean } = {}): ESLint {
  const plugin = options.plugin ?? createPlugin();
  const parser = options.typescript === false ? [] : [{ files: SOURCE_FILES, languageOptions: { parser: tseslint.parser as never } }];
  return new ESLint({
    cwd,
    ...(options.fix ? { fix: true } : {}),
    overrideConfigFile: true,
    overrideConfig: [{ files: SOURCE_FILES }, ...parser, plugin.configs.recommended, ...(options.extra ?? [])],
  });
}

export interface Reported {
  file: string;
  line: number;
  column: number;
  ruleId: string | null;
  message: string;
  /** ESLint's: 2 error, 1 warning. */
  severity: number;
}

/** Every message of every file, with paths relative to `cwd`, in a stable order. */
export function reported(results: ESLint.LintResult[], cwd: string): Reported[] {
  return results
    .flatMap((r) =>
      r.messages.map((m) => ({
        file: r.filePath
          .slice(cwd.length + 1)
          .split('\\')
          .join('/'),
        line: m.line,
        column: m.column,
        ruleId: m.ruleId,
        message: m.message,
        severity: m.severity,
      })),
    )
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || String(a.ruleId).localeCompare(String(b.ruleId))));
}

/** A message's place, rule and words: what a parity test compares. */
export const placeKey = (m: { line: number; column: number; ruleId: string | null; message: string }) => `${m.line}:${m.column} ${m.ruleId} ${m.message}`;

/**
 * check's findings of `rules` in `files` (`findings`), and, to compare, ESLint's messages of them
 * (`eslint`) and check's as the plugin words them (`check`), each `<file>:<line>:<column> <rule>
 * <message>`, sorted: a parity test across modules asserts the findings, then `eslint` equal to `check`.
 */
export async function parityAcross(
  cwd: string,
  files: readonly string[],
  rules: readonly string[],
): Promise<{ findings: Finding[]; eslint: string[]; check: string[] }> {
  const findings = (await runCheck({ cwd })).findings.filter((f) => files.includes(f.file) && rules.includes(f.ruleId));
  const eslint = reported(await eslintWith(cwd).lintFiles([...files]), cwd).filter((m) => rules.some((r) => m.ruleId === `${NAMESPACE}/${r}`));
  const key = (m: { file: string; line: number; column: number; ruleId: string | null; message: string }) => `${m.file}:${placeKey(m)}`;
  return {
    findings,
    eslint: eslint.map(key).sort(),
    check: findings.map((f) => key({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })).sort(),
  };
}

/** The open-doors fixture repo copied, with `files` written over it (remove it after). */
export function openDoorsRepo(prefix: string, files: Record<string, string> = {}): string {
  const cwd = copyFixture('check/open-doors/repo', prefix);
  writeFiles(cwd, files);
  return cwd;
}

/** A module exporting `github`, an MCP server made protected: the door the tests then write elsewhere. */
export const PROTECTED_GITHUB = [
  "import { MCPServerStdio } from '@openai/agents';",
  "import { protectMcpServer } from './ctrlrun.generated.js';",
  "export const github = protectMcpServer(new MCPServerStdio({ name: 'github', fullCommand: 'github-mcp' }));",
  '',
].join('\n');

/**
 * check's findings in `file` (of `rules`, or of every rule): `lines`, each `<line> <rule>`; and, to
 * compare, ESLint's messages of them (`eslint`) and check's as the plugin words them (`check`), each
 * by `placeKey`. Every list sorted.
 */
export async function parityIn(cwd: string, file: string, rules?: readonly string[]): Promise<{ lines: string[]; eslint: string[]; check: string[] }> {
  const check = (await runCheck({ cwd })).findings.filter((f) => f.file === file && (!rules || rules.includes(f.ruleId)));
  const ours = (ruleId: string | null) => (rules ? rules.some((r) => ruleId === `${NAMESPACE}/${r}`) : ruleId?.startsWith(`${NAMESPACE}/`) === true);
  const eslint = reported(await eslintWith(cwd).lintFiles([file]), cwd).filter((m) => ours(m.ruleId));
  return {
    lines: check.map((f) => `${f.line} ${f.ruleId}`).sort(),
    eslint: eslint.map(placeKey).sort(),
    check: check.map((f) => placeKey({ ...f, ruleId: `${NAMESPACE}/${f.ruleId}`, message: eslintMessage(f) })).sort(),
  };
}
