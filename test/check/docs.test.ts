import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/check/meta.js';
import { VERSION } from '../../src/version.js';
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

  it("the workflow template is YAML that runs check through this repository's action (action.yml)", () => {
    const wf = parse(readFileSync(path.join(REPO_ROOT, 'templates/github-workflow.yml'), 'utf8'));
    const steps: Array<{ run?: string; uses?: string; with?: Record<string, string | number> }> = wf.jobs.check.steps;
    expect(wf.permissions['security-events']).toBe('write');
    const action = parse(readFileSync(path.join(REPO_ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
    const step = steps.find((s) => s.uses?.startsWith('ctrlrun-gen/ctrlrun-gen@'));
    expect(step?.uses).toBe(`ctrlrun-gen/ctrlrun-gen@v${VERSION}`);
    expect(step?.with?.['fail-on']).toBe('error');
    for (const key of Object.keys(step?.with ?? {})) expect(Object.keys(action.inputs)).toContain(key);
    // the repo's own install comes first: the action runs the ctrlrun-gen it installs
    expect(steps.findIndex((s) => s.run === 'npm ci')).toBeLessThan(steps.indexOf(step!));
  });
});
