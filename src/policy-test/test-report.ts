/**
 * `test`'s reports: text (a located diff per failing case), JSON, JUnit XML (what CI test report
 * viewers read). Pure: `display` turns an absolute path into the one printed.
 */
import type { CaseResult, TestRun } from './run-tests.js';
import { jsonSafe, showArgs, showValue } from './show.js';

export type TestFormat = 'text' | 'json' | 'junit';
type Display = (file: string) => string;

export function formatTestRun(run: TestRun, format: TestFormat, display: Display, options: { coverage: boolean }): string {
  if (format === 'json') return testJson(run, display, options.coverage);
  if (format === 'junit') return testJunit(run, display);
  return testText(run, display, options.coverage);
}

function caseWhere(r: CaseResult, display: Display): string {
  return `${display(r.case.loc.file || '')}:${r.case.loc.line}:${r.case.loc.column}`;
}

function actualWord(r: CaseResult): string {
  return `${r.actual.decision} (${r.actual.reason})`;
}

function testText(run: TestRun, display: Display, coverage: boolean): string {
  const out: string[] = [];
  for (const r of run.results) {
    if (r.mismatches.length === 0) {
      out.push(`PASS ${r.case.name}`);
      continue;
    }
    out.push(`FAIL ${r.case.name}  ${display(run.suite.file)}:${r.case.loc.line}:${r.case.loc.column}`);
    out.push(`  call: ${r.case.action} ${showArgs(r.case.args)}`);
    for (const m of r.mismatches) {
      const where = `${display(m.loc.file || run.suite.file)}:${m.loc.line}:${m.loc.column}`;
      if (m.message) {
        out.push(`  ${where}: ${m.message}`);
        continue;
      }
      out.push(`  ${where}: expect.${m.field}`);
      out.push(`    - expected: ${showValue(m.expected)}`);
      out.push(`    + actual:   ${showValue(m.actual)}`);
    }
    if (r.actual.detail) out.push(`  why: ${r.actual.detail}`);
  }
  if (coverage) out.push('', ...coverageText(run, display));
  out.push('', `${run.results.length} case${run.results.length === 1 ? '' : 's'}: ${run.passed} passed, ${run.failed} failed`);
  return `${out.join('\n')}\n`;
}

function coverageText(run: TestRun, display: Display): string[] {
  const c = run.coverage;
  const out = [`coverage: ${c.rulesReached}/${c.rulesTotal} rules reached (${c.percent}%)`];
  for (const a of c.actionsUnreached) out.push(`  no case reaches action ${a.action}  ${display(a.loc.file || run.policy.file)}:${a.loc.line}:${a.loc.column}`);
  const unreachedActions = new Set(c.actionsUnreached.map((a) => a.action));
  for (const r of c.rulesUnreached) {
    if (unreachedActions.has(r.action)) continue;
    out.push(`  no case reaches ${r.action} rule ${r.rule}  ${display(r.loc.file || run.policy.file)}:${r.loc.line}:${r.loc.column}`);
  }
  return out;
}

function testJson(run: TestRun, display: Display, coverage: boolean): string {
  return `${JSON.stringify(jsonSafe(testBody(run, display, coverage)), null, 2)}\n`;
}

/** One run's JSON report as an object (the single report, or one entry of a workspace's). */
function testBody(run: TestRun, display: Display, coverage: boolean): Record<string, unknown> {
  const cases = run.results.map((r) => ({
    name: r.case.name,
    file: display(run.suite.file),
    line: r.case.loc.line,
    column: r.case.loc.column,
    action: r.case.action,
    passed: r.mismatches.length === 0,
    actual: { decision: r.actual.decision, rule: r.actual.rule, reason: r.actual.reason, effect_key: r.actual.effectKey, resource: r.actual.resource },
    mismatches: r.mismatches.map((m) => ({
      field: m.field,
      expected: m.expected,
      actual: m.actual,
      line: m.loc.line,
      column: m.loc.column,
      ...(m.message ? { message: m.message } : {}),
    })),
    ...(r.actual.detail && r.mismatches.length > 0 ? { why: r.actual.detail } : {}),
  }));
  const c = run.coverage;
  const body: Record<string, unknown> = {
    policy: display(run.policy.file),
    policyHash: run.policy.hash,
    summary: { cases: run.results.length, passed: run.passed, failed: run.failed },
    cases,
  };
  if (coverage) {
    body['coverage'] = {
      rulesReached: c.rulesReached,
      rulesTotal: c.rulesTotal,
      percent: c.percent,
      actionsUnreached: c.actionsUnreached.map((a) => ({ action: a.action, line: a.loc.line, column: a.loc.column })),
      rulesUnreached: c.rulesUnreached.map((r) => ({ action: r.action, rule: r.rule, line: r.loc.line, column: r.loc.column })),
    };
  }
  return body;
}

function xml(text: string): string {
  // XML 1.0 has no escape for most control characters: they are dropped.
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function testJunit(run: TestRun, display: Display): string {
  return junitDocument([run], display);
}

/** One `<testsuites>` document: a `<testsuite>` per run (a workspace root's packages), totals summed. */
function junitDocument(runs: readonly TestRun[], display: Display): string {
  const tests = runs.reduce((n, r) => n + r.results.length, 0);
  const failures = runs.reduce((n, r) => n + r.failed, 0);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="ctrlrun-gen test" tests="${tests}" failures="${failures}">`];
  for (const run of runs) out.push(...junitSuite(run, display));
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function junitSuite(run: TestRun, display: Display): string[] {
  const file = display(run.suite.file);
  const out = [`  <testsuite name="${xml(file)}" tests="${run.results.length}" failures="${run.failed}" errors="0" skipped="0">`];
  for (const r of run.results) {
    const head = `    <testcase name="${xml(r.case.name)}" classname="${xml(r.case.action)}" file="${xml(file)}" line="${r.case.loc.line}"`;
    if (r.mismatches.length === 0) {
      out.push(`${head}/>`);
      continue;
    }
    const said = (m: (typeof r.mismatches)[number]) => m.message ?? `expect.${m.field}: expected ${showValue(m.expected)}, got ${showValue(m.actual)}`;
    const message = r.mismatches.map(said).join('; ');
    const detail = [
      `${caseWhere(r, display)}: ${r.case.action} ${showArgs(r.case.args)} -> ${actualWord(r)}`,
      ...r.mismatches.map((m) => `${file}:${m.loc.line}:${m.loc.column}: ${said(m)}`),
      ...(r.actual.detail ? [`why: ${r.actual.detail}`] : []),
    ];
    out.push(`${head}>`, `      <failure message="${xml(message)}" type="mismatch">${xml(detail.join('\n'))}</failure>`, '    </testcase>');
  }
  out.push('  </testsuite>');
  return out;
}

/**
 * Several packages' runs (at a workspace root) as one report: JUnit, one `<testsuites>` with a
 * suite per test file; JSON, `{ packages: [...], summary }` of each run's own object; text, each
 * run's report under its test file's name, then the totals.
 */
export function formatTestRuns(runs: readonly TestRun[], format: TestFormat, display: Display, options: { coverage: boolean }): string {
  if (runs.length === 1) return formatTestRun(runs[0]!, format, display, options);
  const cases = runs.reduce((n, r) => n + r.results.length, 0);
  const passed = runs.reduce((n, r) => n + r.passed, 0);
  const failed = runs.reduce((n, r) => n + r.failed, 0);
  if (format === 'junit') return junitDocument(runs, display);
  if (format === 'json') {
    const packages = runs.map((r) => ({ file: display(r.suite.file), ...testBody(r, display, options.coverage) }));
    return `${JSON.stringify(jsonSafe({ packages, summary: { cases, passed, failed } }), null, 2)}\n`;
  }
  const parts = runs.map((r) => `== ${display(r.suite.file)}\n${testText(r, display, options.coverage)}`);
  return `${parts.join('\n')}\n${runs.length} test files, ${cases} case${cases === 1 ? '' : 's'}: ${passed} passed, ${failed} failed\n`;
}
