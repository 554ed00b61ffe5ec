import { readFileSync } from 'node:fs';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/check/meta.js';
import { buildReport, formatReport } from '../../src/check/report/index.js';
import { escapeData, escapeProperty } from '../../src/check/report/github.js';
import type { Finding } from '../../src/check/types.js';
import { REPO_ROOT } from '../helpers/paths.js';

const SOURCES: Record<string, string> = {
  'src/tools.ts': "import { tool } from '@openai/agents';\n\nexport const r = tool({ name: 'refund' });\n",
  'src/dir with space/a%b.ts': 'state.approve(item, { alwaysApprove: true });\n',
};
const readSource = (f: string): string | undefined => SOURCES[f];

const findings: Finding[] = [
  {
    ruleId: 'unprotected-tool',
    severity: 'error',
    file: 'src/tools.ts',
    line: 3,
    column: 18,
    message: "SDK tool 'refund' is mapped",
    hint: 'Run `npx ctrlrun-gen codemod --write`',
  },
  {
    ruleId: 'tracing-sensitive-data',
    severity: 'warning',
    file: 'src/tools.ts',
    line: 1,
    column: 22,
    message: 'tracing, with: a colon, a comma, 100%',
    hint: 'line one\nline two',
  },
  { ruleId: 'sticky-approval', severity: 'error', file: 'src/dir with space/a%b.ts', line: 1, column: 23, message: 'alwaysApprove', hint: 'approve each call' },
  { ruleId: 'stale-generated', severity: 'error', file: 'src/missing.ts', line: 1, column: 1, message: 'does not exist', hint: 'generate' },
];
const counts = { filesConsidered: 10, filesParsed: 3 };

function sarifOf(list: Finding[]): any {
  return JSON.parse(formatReport('sarif', buildReport(list, counts), { color: false, readSource }));
}

describe('json', () => {
  it('has the documented shape, counts over all findings, and caps with max-findings', () => {
    const out = JSON.parse(formatReport('json', buildReport(findings, counts, 2), { color: false, readSource }));
    expect(Object.keys(out)).toEqual(['findings', 'summary']);
    expect(out.findings).toEqual(findings.slice(0, 2));
    expect(Object.keys(out.findings[0])).toEqual(['ruleId', 'severity', 'file', 'line', 'column', 'message', 'hint']);
    expect(out.summary).toEqual({ errors: 3, warnings: 1, total: 4, omitted: 2, filesConsidered: 10, filesParsed: 3 });
  });
});

describe('sarif', () => {
  const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/data/sarif-schema-2.1.0.json'), 'utf8'));
  // unicodeRegExp: false: one pattern of the official schema (language tags) is invalid under the `u` flag.
  const ajv = new AjvDraft04.default({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false });
  const validate = ajv.compile(schema);

  it('validates against the official SARIF 2.1.0 schema', () => {
    const log = sarifOf(findings);
    const ok = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('an empty run validates too', () => {
    expect(validate(sarifOf([]))).toBe(true);
  });

  it('the schema check is real: a broken log fails it', () => {
    const log = sarifOf(findings);
    log.runs[0].results[0].level = 'fatal';
    expect(validate(log)).toBe(false);
  });

  it('has what GitHub code scanning needs', () => {
    const log = sarifOf(findings);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif/);
    const driver = log.runs[0].tool.driver;
    expect(driver.name).toBe('ctrlrun-gen');
    expect(driver.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(driver.informationUri).toMatch(/^https:\/\//);
    expect(driver.rules.map((r: any) => r.id)).toEqual(RULES.map((r) => r.id));
    for (const r of driver.rules) {
      expect(r.shortDescription.text.length).toBeGreaterThan(0);
      expect(r.fullDescription.text.length).toBeGreaterThan(0);
      expect(r.help.text.length).toBeGreaterThan(0);
      expect(['error', 'warning']).toContain(r.defaultConfiguration.level);
    }
    const results = log.runs[0].results;
    expect(results).toHaveLength(findings.length);
    results.forEach((res: any, i: number) => {
      const f = findings[i]!;
      expect(driver.rules[res.ruleIndex].id).toBe(res.ruleId);
      expect(res.ruleId).toBe(f.ruleId);
      expect(res.level).toBe(f.severity);
      expect(res.message.text).toContain(f.message);
      const loc = res.locations[0].physicalLocation;
      expect(loc.artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(loc.artifactLocation.uri.startsWith('/')).toBe(false);
      expect(loc.region.startLine).toBeGreaterThanOrEqual(1);
      expect(loc.region.startColumn).toBe(f.column);
      expect(Object.values(res.partialFingerprints)[0]).toMatch(/^[0-9a-f]{32}:\d+$/);
    });
    expect(results[2].locations[0].physicalLocation.artifactLocation.uri).toBe('src/dir%20with%20space/a%25b.ts');
  });

  it('fingerprints are stable when lines move, and differ by rule and by line text', () => {
    const fp = (list: Finding[], src = readSource) =>
      JSON.parse(formatReport('sarif', buildReport(list, counts), { color: false, readSource: src })).runs[0].results.map(
        (r: any) => Object.values(r.partialFingerprints)[0],
      );
    const [a] = fp([findings[0]!]);
    const moved = fp([{ ...findings[0]!, line: 5 }], (f) => (f === 'src/tools.ts' ? `\n\n${SOURCES[f]}` : undefined));
    expect(moved[0]).toBe(a);
    const [other] = fp([{ ...findings[0]!, ruleId: 'unsafe-error-function' }]);
    expect(other).not.toBe(a);
    const [edited] = fp([findings[0]!], (f) => (f === 'src/tools.ts' ? SOURCES[f]!.replace("'refund'", "'refund2'") : undefined));
    expect(edited).not.toBe(a);
    const twice = fp([findings[0]!, { ...findings[0]!, column: 30 }]);
    expect(twice[0]).not.toBe(twice[1]);
  });
});

describe('github', () => {
  it('escapes data and properties per the workflow-command rules', () => {
    expect(escapeData('100%\r\nnext')).toBe('100%25%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
  });

  it('one ::error / ::warning command per finding', () => {
    const out = formatReport('github', buildReport(findings, counts), { color: false, readSource });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(findings.length + 1);
    expect(lines[0]).toBe(
      "::error file=src/tools.ts,line=3,col=18,title=unprotected-tool::SDK tool 'refund' is mapped%0Ahint: Run `npx ctrlrun-gen codemod --write`",
    );
    expect(lines[1]).toBe(
      '::warning file=src/tools.ts,line=1,col=22,title=tracing-sensitive-data::tracing, with: a colon, a comma, 100%25%0Ahint: line one%0Aline two',
    );
    expect(lines[2]!.startsWith('::error file=src/dir with space/a%25b.ts,line=1,col=23,title=sticky-approval::')).toBe(true);
    expect(lines[4]).toMatch(/3 error\(s\), 1 warning\(s\)/);
  });
});

describe('text', () => {
  const report = buildReport(findings, counts);

  it('groups by file, with a code frame, the rule id and the hint; no color when off', () => {
    const out = formatReport('text', report, { color: false, readSource });
    expect(out).not.toMatch(/\x1b\[/);
    const toolsAt = out.indexOf('src/tools.ts\n');
    expect(toolsAt).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('src/tools.ts\n', toolsAt + 1)).toBe(-1);
    expect(out).toContain("  3:18  error  SDK tool 'refund' is mapped  unprotected-tool");
    expect(out).toContain("> 3 | export const r = tool({ name: 'refund' });");
    expect(out).toContain('    hint: Run `npx ctrlrun-gen codemod --write`');
    expect(out).toContain('1:1  error  does not exist  stale-generated');
    expect(out).toMatch(/✖ 4 finding\(s\): 3 error\(s\), 1 warning\(s\)/);
  });

  it('colors when asked', () => {
    expect(formatReport('text', report, { color: true, readSource })).toMatch(/\x1b\[31merror/);
  });

  it('says so when nothing is found', () => {
    expect(formatReport('text', buildReport([], counts), { color: false, readSource })).toContain('no findings');
  });
});

describe('what the files under review chose is escaped in every report a person reads (issue 24, item 7)', () => {
  // a policy key with an ESC sequence that erases the line, a carriage return and a bidi override,
  // as the loader reports it (`at actions.…`), and a tool name with the same in a rule's message
  const key = 'evil\u001b[2K\rkey\u202ex';
  const hostile: Finding[] = [
    {
      ruleId: 'policy-invalid',
      severity: 'error',
      file: 'ctrlrun.yaml',
      line: 2,
      column: 15,
      message: `\`bogus\` is not one of \`allow\`, \`approve\`, \`deny\` (at actions.${key}.decision)`,
      hint: `fix ${key}`,
    },
  ];
  // in the file a CR would end the line (YAML and JS both break there): the frame shows ESC and the override
  const srcKey = key.replace('\r', '');
  const src = (f: string) => (f === 'ctrlrun.yaml' ? `actions:\n  "${srcKey}": { decision: bogus }\n` : undefined);
  const RAW = /[\u001b\r\u202e]/;
  const escapedKey = 'evil\\u{1b}[2K\\u{d}key\\u{202e}x';

  it('text: the message, the hint and the code frame show escapes, marked, with the note', () => {
    const out = formatReport('text', buildReport(hostile, counts), { color: false, readSource: src });
    expect(out).not.toMatch(RAW);
    expect(out).toContain(`(at actions.${escapedKey}.decision)»`);
    expect(out).toContain(`hint: «fix ${escapedKey}»`);
    expect(out).toContain(`> 2 |   "${escapedKey.replace('\\u{d}', '')}": { decision: bogus }`);
    expect(out).toContain('marks stored text with control, invisible or bidi characters');
  });

  it('sarif: the result message holds no raw control or bidi character, and says it is escaped', () => {
    const out = formatReport('sarif', buildReport(hostile, counts), { color: false, readSource: src });
    const text: string = JSON.parse(out).runs[0].results[0].message.text;
    expect(text).not.toMatch(RAW);
    expect(text).toContain(`(at actions.${escapedKey}.decision)»`);
    expect(text).toContain('shown escaped');
    // plain findings are unchanged (no mark, no note)
    expect(sarifOf([findings[0]!]).runs[0].results[0].message.text).toBe("SDK tool 'refund' is mapped\nHint: Run `npx ctrlrun-gen codemod --write`");
  });

  it('github: the workflow command carries no raw ESC or bidi control', () => {
    const out = formatReport('github', buildReport(hostile, counts), { color: false, readSource: src });
    expect(out).not.toMatch(RAW);
    expect(out).toContain(`(at actions.${escapedKey}.decision)»`);
  });
});
