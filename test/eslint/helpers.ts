import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { createPlugin, type CtrlrunPlugin } from '../../src/eslint/index.js';

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
