import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { cli } from '../helpers/cli.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';

/**
 * Whole runs of `check` over the repos in `fixtures/check/<case>/repo`, compared with
 * `fixtures/check/<case>/expected.<format>` (the tool's version in SARIF reads `<version>`).
 * `UPDATE_GOLDEN=1` rewrites the expected files.
 */
const CASES: Array<{ name: string; formats: string[]; code: number }> = [
  { name: 'open-doors', formats: ['text', 'json', 'sarif', 'github'], code: 1 },
  { name: 'no-manifest', formats: ['text', 'json', 'sarif'], code: 2 },
  { name: 'bad-policy', formats: ['text', 'json'], code: 2 },
];

const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/data/sarif-schema-2.1.0.json'), 'utf8'));
const validateSarif = new AjvDraft04.default({ strict: false, validateFormats: false, unicodeRegExp: false }).compile(schema);

describe('check golden runs', () => {
  for (const c of CASES) {
    for (const format of c.formats) {
      it(`${c.name} --format ${format}`, async () => {
        const dir = path.join(FIXTURES, 'check', c.name);
        const r = await cli(['check', '--format', format], { cwd: path.join(dir, 'repo') });
        expect(r.stderr).toBe('');
        expect(r.code).toBe(c.code);
        const out = r.stdout.split(VERSION).join('<version>');
        const golden = path.join(dir, `expected.${format}`);
        if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden, out);
        expect(existsSync(golden), `${golden} is missing: run with UPDATE_GOLDEN=1 and review it`).toBe(true);
        expect(out).toBe(readFileSync(golden, 'utf8'));
        if (format === 'sarif') expect(validateSarif(JSON.parse(r.stdout)), JSON.stringify(validateSarif.errors)).toBe(true);
        if (format === 'json') {
          const findings: Array<{ file: string; line: number; column: number; ruleId: string }> = JSON.parse(out).findings;
          const key = (f: (typeof findings)[number]) => [f.file, String(f.line).padStart(6, '0'), String(f.column).padStart(6, '0'), f.ruleId].join('\0');
          expect(findings.map(key)).toEqual(findings.map(key).sort());
          for (const f of findings) expect(path.isAbsolute(f.file)).toBe(false);
        }
      });
    }
  }
});
