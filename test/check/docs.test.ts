import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/check/meta.js';
import { REPO_ROOT } from '../helpers/paths.js';

describe('check docs', () => {
  it('every rule has docs/rules/<id>.md with its description and fix, and no page is orphaned', () => {
    for (const rule of RULES) {
      const file = path.join(REPO_ROOT, 'docs/rules', `${rule.id}.md`);
      expect(existsSync(file), file).toBe(true);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain(`# \`${rule.id}\` (${rule.severity})`);
      expect(text).toContain(rule.full);
      expect(text).toContain(`**Fix.** ${rule.help}`);
    }
    const pages = readdirSync(path.join(REPO_ROOT, 'docs/rules'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3))
      .sort();
    expect(pages).toEqual(RULES.map((r) => r.id).sort());
  });

  it('docs/check.md lists every rule', () => {
    const text = readFileSync(path.join(REPO_ROOT, 'docs/check.md'), 'utf8');
    for (const rule of RULES) expect(text).toContain(`(rules/${rule.id}.md)`);
  });

  it("the workflow template is YAML that runs check as this repository's action does (action.yml): annotations, then SARIF for code scanning", () => {
    const wf = parse(readFileSync(path.join(REPO_ROOT, 'templates/github-workflow.yml'), 'utf8'));
    const steps: Array<{ run?: string; uses?: string; with?: Record<string, string | number> }> = wf.jobs.check.steps;
    const action = parse(readFileSync(path.join(REPO_ROOT, 'action.yml'), 'utf8')) as { runs: { steps: Array<{ run?: string }> } };
    const step = steps.find((s) => s.run?.includes('ctrlrun-gen check'))!;
    // the two commands the action runs, on the ctrlrun-gen the repository installs
    const actionRun = action.runs.steps.map((s) => s.run ?? '').join('\n');
    for (const format of ['github', 'sarif']) {
      expect(step.run).toContain(`npx --no-install ctrlrun-gen check --format ${format} --fail-on error`);
      expect(actionRun).toContain(`npx --no-install ctrlrun-gen check --format ${format} --fail-on "$CTRLRUN_FAIL_ON"`);
    }
    expect(steps.findIndex((s) => s.run === 'npm ci')).toBeLessThan(steps.indexOf(step));
  });
});
