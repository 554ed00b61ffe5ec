import type { ESLint, Linter, Rule, SourceCode } from 'eslint';
import { ruleDocsUri, RULES } from '../check/meta.js';
import type { Finding, RuleMeta } from '../check/types.js';
import { VERSION } from '../version.js';
import { codemodFix, FIXABLE_RULES, type TextFix } from './fix.js';
import { DiskSessions, type LintSession } from './session.js';

/** The plugin's name in `plugins: { ctrlrun }`; its rules are `ctrlrun/<rule-id>`. */
export const NAMESPACE = 'ctrlrun';

export interface PluginOptions {
  /**
   * The session a file is linted in. Default: the file's repo on disk (its manifest found upward
   * from the file), kept across files and runs and rebuilt when the manifest, the policy or the
   * generated module changes. Tests pass a `SingleFileSession`.
   */
  sessionFor?: (abs: string, cwd: string) => LintSession;
  /** The clock the on-disk sessions space their comparisons with the disk by (default `Date.now`; tests pass their own). */
  now?: () => number;
}

/** One file's findings, as ESLint reports them, with the codemod's fix where it has one. */
interface Reported {
  finding: Finding;
  /** Where ESLint puts it (1-based line, 1-based column). */
  line: number;
  column: number;
  message: string;
  fix?: TextFix;
}

/** ESLint shows one message; check's hint follows it, as in SARIF's `message.text`. */
export function eslintMessage(finding: Pick<Finding, 'message' | 'hint'>): string {
  return `${finding.message}\nHint: ${finding.hint}`;
}

/** A finding check places in another file (the policy, the manifest, the generated module), reported on line 1 with its location. */
export function elsewhereMessage(finding: Finding): string {
  return `${finding.message} (${finding.file}:${finding.line}:${finding.column})\nHint: ${finding.hint}`;
}

export type CtrlrunPlugin = ESLint.Plugin & {
  rules: Record<string, Rule.RuleModule>;
  configs: { recommended: Linter.Config };
};

/**
 * The ESLint front end of `check`: one ESLint rule per check rule id (the same `RULES`), each
 * reporting that rule's findings of the file. The findings are computed once per file (the first
 * rule to run asks; the others read the same result) by the same engine `check` runs: the scanner,
 * the rules, the suppressions.
 */
export function createPlugin(options: PluginOptions = {}): CtrlrunPlugin {
  const sessions = new DiskSessions(options.now);
  const sessionFor = options.sessionFor ?? ((abs: string, cwd: string) => sessions.sessionFor(abs, cwd));
  const perFile = new WeakMap<SourceCode, Map<string, Reported[]>>();

  const reportedFor = (context: Rule.RuleContext): Map<string, Reported[]> => {
    const source = context.sourceCode;
    const known = perFile.get(source);
    if (known) return known;
    const abs = context.physicalFilename ?? context.filename;
    const session = sessionFor(abs, context.cwd);
    const lint = session.lint(abs, source.text);
    const byRule = new Map<string, Reported[]>();
    const add = (r: Reported): void => {
      const list = byRule.get(r.finding.ruleId);
      if (list) list.push(r);
      else byRule.set(r.finding.ruleId, [r]);
    };
    const fixOf = lint.scan && lint.own.some((f) => FIXABLE_RULES.has(f.ruleId)) ? codemodFix(session, abs, source.text, lint.scan) : undefined;
    for (const f of lint.own) {
      const fix = FIXABLE_RULES.has(f.ruleId) ? fixOf?.(f) : undefined;
      add({ finding: f, line: f.line, column: f.column, message: eslintMessage(f), ...(fix ? { fix } : {}) });
    }
    for (const f of lint.elsewhere) add({ finding: f, line: 1, column: 1, message: elsewhereMessage(f) });
    for (const r of lint.atImports ?? []) add({ finding: r.finding, line: r.line, column: r.column, message: elsewhereMessage(r.finding) });
    perFile.set(source, byRule);
    return byRule;
  };

  const rules: Record<string, Rule.RuleModule> = {};
  for (const meta of RULES) rules[meta.id] = eslintRule(meta, reportedFor);

  const plugin: CtrlrunPlugin = {
    meta: { name: 'eslint-plugin-ctrlrun', version: VERSION, namespace: NAMESPACE },
    rules,
    configs: { recommended: {} },
  };
  plugin.configs.recommended = {
    name: 'ctrlrun/recommended',
    plugins: { [NAMESPACE]: plugin },
    rules: Object.fromEntries(RULES.map((r) => [`${NAMESPACE}/${r.id}`, r.severity === 'error' ? 'error' : 'warn'])),
  };
  return plugin;
}

function eslintRule(meta: RuleMeta, reportedFor: (context: Rule.RuleContext) => Map<string, Reported[]>): Rule.RuleModule {
  return {
    meta: {
      type: 'problem',
      docs: { description: meta.short, url: ruleDocsUri(meta.id), recommended: true },
      messages: { finding: '{{ message }}' },
      schema: [],
      ...(FIXABLE_RULES.has(meta.id) ? { fixable: 'code' as const } : {}),
    },
    create(context) {
      return {
        Program() {
          for (const r of reportedFor(context).get(meta.id) ?? []) {
            const fix = r.fix;
            context.report({
              loc: { line: r.line, column: r.column - 1 },
              messageId: 'finding',
              data: { message: r.message },
              ...(fix ? { fix: (fixer: Rule.RuleFixer) => fixer.replaceTextRange([fix.start, fix.end], fix.text) } : {}),
            });
          }
        },
      };
    },
  };
}
