import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/paths.js';

describe('the workflow template reviews the policy like code', () => {
  it('runs test (JUnit uploaded), diff against the base branch and replay when an export exists, and comments the markdown', () => {
    const wf = parse(readFileSync(path.join(REPO_ROOT, 'templates/github-workflow.yml'), 'utf8'));
    const steps: Array<{ run?: string; uses?: string; with?: Record<string, unknown> }> = wf.jobs.policy.steps;
    // read-only: the comment is the report workflow's (templates/github-workflow-report.yml)
    expect(wf.jobs.policy.permissions).toEqual({ contents: 'read' });
    expect(steps[0]!.with?.['fetch-depth']).toBe(0);
    expect(steps.some((s) => s.run?.includes('ctrlrun-gen test --coverage --format junit --output policy-tests.xml'))).toBe(true);
    expect(steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))?.with?.['path']).toBe('policy-tests.xml');
    const diff = steps.find((s) => s.run?.includes('ctrlrun-gen diff'))!.run!;
    expect(diff).toContain('ctrlrun-gen diff "origin/${{ github.base_ref }}" --format markdown > policy-report.md');
    // every package's export (one at a single package's root), against the policy beside it
    expect(diff).toContain("find . -name ctrlrun.calls.jsonl -not -path '*/node_modules/*'");
    expect(diff).toContain('ctrlrun-gen replay --policy "$(dirname "$calls")/ctrlrun.yaml" --calls "$calls" --format markdown');
    expect(steps.some((s) => s.run?.includes('mv policy-report.md policy-report/'))).toBe(true);
    const report = readFileSync(path.join(REPO_ROOT, 'templates/github-workflow-report.yml'), 'utf8');
    expect(report).toContain('gh pr comment "$pr" --repo "$REPO" --body-file policy-report/policy-report.md');
    const ci = readFileSync(path.join(REPO_ROOT, 'docs/ci.md'), 'utf8');
    expect(ci).toContain('ctrlrun-gen diff "origin/${{ github.base_ref }}" --format markdown');
    // the docs show the job as the template has it
    for (const line of diff.split('\n').filter((l) => l.trim() !== '')) expect(ci).toContain(line.trim());
  });
});
