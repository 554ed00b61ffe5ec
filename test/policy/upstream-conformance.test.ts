import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePolicy, type CertFileReader } from '../../src/policy/load.js';
import { tlsVerdict } from '../../src/runtime/doors/mcp.js';
import { FIXTURES } from '../helpers/paths.js';

/**
 * CTRLRun 0.12.2's upstream pins as facts (fixtures/conformance/ctrlrun-upstream.json): what its
 * loader accepts and refuses, and what its decision-time check answers for the certificate half.
 * The loader is given the certificate files in memory (its one piece of I/O is passed in).
 */
interface Fixture {
  digests: Record<'D1' | 'D2', string>;
  load: Array<{ upstream: string; loads: boolean; code?: string; why: string }>;
  check: Array<{ digests: Array<'D1' | 'D2'>; observed: 'D1' | 'D2' | null; reason: string | null; ours?: string; why: string }>;
}

const fixture = JSON.parse(readFileSync(path.join(FIXTURES, 'conformance/ctrlrun-upstream.json'), 'utf8')) as Fixture;
const CERT = readFileSync(path.join(FIXTURES, 'policy/certs/upstream.pem'), 'utf8');
const FILES: Record<string, string> = {
  'upstream.pem': CERT,
  'two.pem': `${CERT}${CERT}`,
  'junk.txt': 'no certificate here\n',
  'prefixed.pem': `Bag Attributes\n${CERT}`,
};
const readCertFile: CertFileReader = (file) => (Object.hasOwn(FILES, file) ? { text: FILES[file]! } : { error: 'no such file' });

function policyWith(upstream: string): string {
  const text = upstream
    .replace(/UPPER_D1/g, `"${fixture.digests.D1.toUpperCase().replace('SHA256', 'sha256')}"`)
    .replace(/\bD1\b/g, `"${fixture.digests.D1}"`)
    .replace(/\bD2\b/g, `"${fixture.digests.D2}"`);
  return `schema: ctrlrun.policy/v8\nactions:\n  stripe.payout:\n    decision: approve\n    upstream: ${text}\n`;
}

describe("CTRLRun's upstream pins: loading", () => {
  it('the digest of the fixture certificate is D1 (SHA-256 of its DER)', () => {
    const r = parsePolicy(policyWith('{ tls_cert_sha256: [D1], tls_cert_file: upstream.pem }'), 'ctrlrun.yaml', readCertFile);
    expect(r.value?.actions['stripe.payout']?.upstream).toEqual({ tlsCertSha256: [fixture.digests.D1], tlsCertFiles: ['upstream.pem'], tlsCertPems: [CERT] });
  });

  it.each(fixture.load)('$upstream: loads $loads ($why)', (row) => {
    const r = parsePolicy(policyWith(row.upstream), 'ctrlrun.yaml', readCertFile);
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    if (row.loads) {
      expect(errors).toEqual([]);
      expect(r.value).toBeDefined();
    } else {
      expect(r.value).toBeUndefined();
      expect(errors.map((d) => d.code)).toEqual([row.code]);
      expect(errors[0]!.path).toMatch(/^actions\.stripe\.payout\.upstream/);
      expect(errors[0]!.hint).toBeTruthy();
    }
  });
});

describe("CTRLRun's upstream pins: the decision-time check of the certificate", () => {
  it.each(fixture.check)('digests $digests, observed $observed: $reason ($why)', (row) => {
    const digests = row.digests.map((d) => fixture.digests[d]);
    const seen =
      row.observed === null
        ? undefined
        : { sha256: fixture.digests[row.observed], pinned: digests.length === 0 || digests.includes(fixture.digests[row.observed]) };
    expect(tlsVerdict(digests, seen)).toBe(row.ours ?? row.reason);
  });
});
