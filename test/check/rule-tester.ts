import { describe, expect, it } from 'vitest';
import { lintFiles } from '../../src/check/engine.js';
import type { Finding, ProjectContext } from '../../src/check/types.js';
import type { Manifest } from '../../src/manifest/types.js';
import type { Decision, Policy, PolicyAction } from '../../src/policy/types.js';
import { scanRepoSync, scanSource } from '../../src/scan/index.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eslintRuleTester, parityTester } from '../eslint/mirror.js';

/** A source text of the given lines, each ending with a newline. */
export const lines = (...l: string[]): string => `${l.join('\n')}\n`;

export interface ExpectedFinding {
  ruleId?: string;
  line: number;
  column: number;
  severity?: 'error' | 'warning';
  /** A part of the message or hint. */
  mentions?: string;
}

export interface RuleCase {
  name: string;
  code: string;
  /** Default `src/agent.ts`. */
  file?: string;
  /**
   * Other files of the repo (path → text): the case is then scanned as a repo (on disk, through the
   * repo scan that follows imports across files). ESLint's one-file RuleTester does not take such a
   * case (test/eslint covers the plugin over a repo on disk).
   */
  files?: Record<string, string>;
  /** Default: the tester's project; `null` runs with no project (the manifest did not load). */
  project?: ProjectContext | null;
}

export interface InvalidCase extends RuleCase {
  errors: ExpectedFinding[];
}

/**
 * ESLint's RuleTester, for `check`: each case's source goes through the real scanner (`scanSource`)
 * and the whole lint (every rule, then suppressions); only the findings of `ruleId` are compared.
 * `valid`: none; `invalid`: exactly the expected ones (rule id, line, column, and severity when given).
 * The same cases then run through ESLint's own RuleTester and the ESLint plugin
 * (test/eslint/mirror.ts), so check and the plugin cannot drift apart.
 */
export function ruleTester(ruleId: string, cases: { valid: RuleCase[]; invalid: InvalidCase[] }, project: ProjectContext | null = testProject()): void {
  describe(ruleId, () => {
    for (const c of cases.valid) {
      it(`valid: ${c.name}`, () => {
        expect(findingsOf(ruleId, c, project).map(brief)).toEqual([]);
      });
    }
    for (const c of cases.invalid) {
      it(`invalid: ${c.name}`, () => {
        const found = findingsOf(ruleId, c, project);
        expect(found.map((f) => ({ ruleId: f.ruleId, line: f.line, column: f.column }))).toEqual(
          c.errors.map((e) => ({ ruleId: e.ruleId ?? ruleId, line: e.line, column: e.column })),
        );
        c.errors.forEach((e, i) => {
          const f = found[i]!;
          if (e.severity) expect(f.severity).toBe(e.severity);
          if (e.mentions) expect(`${f.message}\n${f.hint}`).toContain(e.mentions);
          expect(f.hint.length).toBeGreaterThan(0);
        });
      });
    }
  });
  const oneFile = { valid: cases.valid.filter((c) => !c.files), invalid: cases.invalid.filter((c) => !c.files) };
  eslintRuleTester(ruleId, oneFile, project, (c) => findingsOf(ruleId, c, project));
  // a table of repo cases only has no one-file case to compare (an empty suite fails the run)
  if (oneFile.valid.length + oneFile.invalid.length === 0) return;
  parityTester(ruleId, oneFile, project, (c) => lintSource(c.code, { file: c.file, project: c.project === undefined ? project : c.project }));
}

/** Lints one source text through the real scanner and returns the findings of `ruleId` (all when undefined). */
export function lintSource(code: string, options: { file?: string; project?: ProjectContext | null; ruleId?: string } = {}): Finding[] {
  const file = options.file ?? 'src/agent.ts';
  const project = options.project === undefined ? testProject() : options.project;
  const findings = lintFiles([scanSource(file, code)], project ?? undefined, () => code);
  return options.ruleId ? findings.filter((f) => f.ruleId === options.ruleId) : findings;
}

function findingsOf(ruleId: string, c: RuleCase, project: ProjectContext | null): Finding[] {
  const p = c.project === undefined ? project : c.project;
  if (c.files) return lintRepo({ ...c.files, [c.file ?? 'src/agent.ts']: c.code }, { project: p, ruleId, file: c.file ?? 'src/agent.ts' });
  return lintSource(c.code, { file: c.file, project: p, ruleId });
}

/** Lints a repo of these files (written to a temporary folder, scanned as check scans a repo): the findings of `ruleId` (default: every rule) in `file`. */
export function lintRepo(files: Record<string, string>, options: { project: ProjectContext | null; ruleId?: string; file: string }): Finding[] {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ctrlrun-rule-repo-'));
  try {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      writeFileSync(path.join(root, rel), text);
    }
    const scan = scanRepoSync({ root });
    const findings = lintFiles(scan.files, options.project ?? undefined, (s) => files[s.file] ?? '');
    return findings.filter((f) => (options.ruleId === undefined || f.ruleId === options.ruleId) && f.file === options.file);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function brief(f: Finding): string {
  return `${f.line}:${f.column} ${f.ruleId}: ${f.message}`;
}

const loc = { file: '/repo/ctrlrun.yaml', line: 1, column: 1 };

/** A hand-built action: one unconditional decision, or rules given as decisions. */
export function action(id: string, decisions: Decision[], extra: Partial<PolicyAction> = {}): PolicyAction {
  return {
    id,
    bare: false,
    controls: [],
    approvalsRequired: 1,
    maxAttempts: 1,
    mcp: { notExecutedOnError: false },
    rules: decisions.map((decision, index) => ({ index, when: [], decision, controls: [], loc })),
    loc,
    ...extra,
  };
}

/**
 * The project the rule tests run against: tools `refund` → stripe.refund (allow/approve/deny, with an
 * effect), `lookup_charge` → stripe.charge.read (allow, no effect), `close_account` → accounts.close (deny).
 */
export function testProject(overrides: { tools?: Record<string, string>; actions?: PolicyAction[] } = {}): ProjectContext {
  const tools = overrides.tools ?? { refund: 'stripe.refund', lookup_charge: 'stripe.charge.read', close_account: 'accounts.close' };
  const actions = overrides.actions ?? [
    action('stripe.refund', ['allow', 'approve', 'deny'], {
      effect: {
        source: 'refund:{payment_id}',
        parts: [
          { kind: 'text', text: 'refund:' },
          { kind: 'arg', arg: 'payment_id' },
        ],
        loc,
      },
      // bands on the amount: unconditional allow/approve/deny would be an allow-all action whose later rules are shadowed
      rules: (['allow', 'approve', 'deny'] as const).map((decision, index) => ({
        index,
        when: index === 2 ? [] : [{ key: 'amount_lte', arg: 'amount', op: 'lte' as const, value: index === 0 ? 10000 : 1000000, loc }],
        decision,
        controls: [],
        loc,
      })),
    }),
    action('stripe.charge.read', ['allow']),
    action('accounts.close', ['deny']),
  ];
  const manifest: Manifest = {
    schemaVersion: 1,
    file: '/repo/ctrlrun.tools.yaml',
    root: '/repo',
    policy: '/repo/ctrlrun.yaml',
    output: '/repo/src/ctrlrun.generated.ts',
    control: '/repo/src/ctrlrun.control.ts',
    tools: Object.entries(tools).map(([tool, act], i) => ({
      kind: 'function' as const,
      tool,
      action: act,
      loc: { file: '/repo/ctrlrun.tools.yaml', line: 7 + 2 * i, column: 5 },
    })),
  };
  const policy: Policy = {
    schemaVersion: 6,
    mode: 'enforce',
    controls: {},
    actions: Object.fromEntries(actions.map((a) => [a.id, a])),
    hash: '0'.repeat(64),
    file: '/repo/ctrlrun.yaml',
  };
  return { manifest, policy };
}
