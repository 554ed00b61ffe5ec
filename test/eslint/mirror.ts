import path from 'node:path';
import { Linter, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import type { Finding, ProjectContext } from '../../src/check/types.js';
import { codemodFix, FIXABLE_RULES } from '../../src/eslint/fix.js';
import { createPlugin, eslintMessage, NAMESPACE, SingleFileSession } from '../../src/eslint/index.js';
import { scanSource } from '../../src/scan/index.js';

/** What check's rule tester hands over for one rule: its cases and the findings check gives for a case. */
export interface MirroredCases {
  valid: Array<{ name: string; code: string; file?: string; project?: ProjectContext | null }>;
  invalid: Array<{
    name: string;
    code: string;
    file?: string;
    project?: ProjectContext | null;
    errors: Array<{ line: number; column: number; ruleId?: string }>;
  }>;
}

/**
 * Rules whose cases ESLint cannot take as they are: a file that does not parse is ESLint's own
 * fatal error (its parser runs first), and the ids of findings located outside the linted file.
 */
const NOT_MIRRORED = new Set(['parse-error', 'observe-mode', 'stale-generated', 'policy-invalid', 'unreadable-file']);

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never, sourceType: 'module' } });

const asProject = (p: ProjectContext | null | undefined) => (p ? { manifest: p.manifest, policy: p.policy, sources: new Map<string, string>() } : undefined);

/**
 * The same cases, through ESLint's own RuleTester and the plugin (in a session of that file alone,
 * as check's tester lints a case): an invalid case must give exactly the case's findings (line,
 * column) with check's message, and a fixable one the codemod's rewrite as its output.
 */
export function eslintRuleTester(
  ruleId: string,
  cases: MirroredCases,
  project: ProjectContext | null,
  checkFindings: (c: MirroredCases['valid'][number]) => Finding[],
): void {
  if (NOT_MIRRORED.has(ruleId)) return;
  const cwd = process.cwd();
  const filename = (file?: string) => path.join(cwd, file ?? 'src/agent.ts');
  // one plugin per case project: the session is the case's file, with the case's project
  const pluginFor = (p: ProjectContext | null) => createPlugin({ sessionFor: () => new SingleFileSession(asProject(p), cwd) });
  const byProject = new Map<ProjectContext | null, ReturnType<typeof pluginFor>>();
  const ruleOf = (p: ProjectContext | null) => {
    if (!byProject.has(p)) byProject.set(p, pluginFor(p));
    return byProject.get(p)!.rules[ruleId]!;
  };
  // RuleTester runs one rule over cases that share it: cases with their own project get their own run
  const groups = new Map<ProjectContext | null, MirroredCases>();
  const group = (p: ProjectContext | null) => {
    if (!groups.has(p)) groups.set(p, { valid: [], invalid: [] });
    return groups.get(p)!;
  };
  for (const c of cases.valid) group(c.project === undefined ? project : c.project).valid.push(c);
  for (const c of cases.invalid) group(c.project === undefined ? project : c.project).invalid.push(c);
  let n = 0;
  for (const [p, g] of groups) {
    tester.run(`eslint: ${ruleId}${n++ === 0 ? '' : ` (${n})`}`, ruleOf(p), {
      valid: g.valid.map((c) => ({ name: c.name, code: c.code, filename: filename(c.file) })),
      invalid: g.invalid.map((c) => {
        const found = checkFindings(c).filter((f) => f.ruleId === ruleId);
        const output = FIXABLE_RULES.has(ruleId) ? fixedOutput(c.code, filename(c.file), p, found) : undefined;
        return {
          name: c.name,
          code: c.code,
          filename: filename(c.file),
          errors: c.errors.map((e, i) => ({ line: e.line, column: e.column, message: found[i] ? eslintMessage(found[i]) : '(check gives no such finding)' })),
          ...(output !== undefined ? { output } : {}),
        };
      }),
    });
  }
}

/** The codemod's rewrite when it fixes one of these findings (what `eslint --fix` must produce in one pass). */
function fixedOutput(code: string, abs: string, project: ProjectContext | null, found: Finding[]): string | undefined {
  const session = new SingleFileSession(asProject(project), process.cwd());
  const scan = scanSource(path.relative(process.cwd(), abs), code);
  const fixOf = codemodFix(session, abs, code, scan);
  const fix = found.map((f) => fixOf?.(f)).find((x) => x !== undefined);
  return fix ? code.slice(0, fix.start) + fix.text + code.slice(fix.end) : undefined;
}

/** One finding as both front ends place it: rule id, severity, line and column. */
export interface Placed {
  ruleId: string;
  severity: 'error' | 'warning';
  line: number;
  column: number;
}

const byPlace = (a: Placed, b: Placed): number =>
  a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId) || a.severity.localeCompare(b.severity);

/**
 * One verdict (issue 35): every case of a rule (valid and invalid) linted whole by `check` (every
 * rule) and by ESLint with the plugin's `recommended` config (every rule, at the severity that config
 * gives it): the same rule ids, severities and places. A finding check places in another file
 * (the policy) is reported by ESLint at line 1, column 1 of the linted file. A case that does not
 * parse is ESLint's own fatal error, not a rule's: those cases are left to their own rule's tests.
 */
export function parityTester(
  ruleId: string,
  cases: MirroredCases,
  project: ProjectContext | null,
  checkAll: (c: MirroredCases['valid'][number]) => Finding[],
): void {
  const cwd = process.cwd();
  const configs = new Map<ProjectContext | null, Linter.Config[]>();
  const configFor = (p: ProjectContext | null): Linter.Config[] => {
    let known = configs.get(p);
    if (!known) {
      const plugin = createPlugin({ sessionFor: () => new SingleFileSession(asProject(p), cwd) });
      known = [
        { files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'], languageOptions: { parser: tseslint.parser as never, sourceType: 'module' } },
        plugin.configs.recommended,
      ];
      configs.set(p, known);
    }
    return known;
  };
  describe(`one verdict: ${ruleId}`, () => {
    for (const c of [...cases.valid, ...cases.invalid]) {
      it(c.name, () => {
        const file = c.file ?? 'src/agent.ts';
        const fromCheck = checkAll(c);
        if (fromCheck.some((f) => f.ruleId === 'parse-error')) return;
        const expected: Placed[] = fromCheck.map((f) => ({
          ruleId: f.ruleId,
          severity: f.severity,
          ...(f.file === file ? { line: f.line, column: f.column } : { line: 1, column: 1 }),
        }));
        const messages = new Linter().verify(c.code, configFor(c.project === undefined ? project : c.project), { filename: path.join(cwd, file) });
        const fatal = messages.filter((m) => m.ruleId === null);
        expect(fatal.map((m) => m.message)).toEqual([]);
        const reported: Placed[] = messages.map((m) => ({
          ruleId: String(m.ruleId).slice(NAMESPACE.length + 1),
          severity: m.severity === 2 ? 'error' : 'warning',
          line: m.line,
          column: m.column,
        }));
        expect(reported.sort(byPlace)).toEqual(expected.sort(byPlace));
      });
    }
  });
}
