import type { Log, ReportingDescriptor, Result } from 'sarif';
import { MARK_NOTE, terminalSafe, terminalSafeLines } from '../../terminal-text.js';
import { VERSION } from '../../version.js';
import { DOCS_BASE, RULES, ruleDocsUri } from '../meta.js';
import type { Finding } from '../types.js';
import type { CheckReport, SourceReader } from './types.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
export const INFORMATION_URI = DOCS_BASE;
/** The key of our own fingerprint in `partialFingerprints` (versioned: change it if the recipe changes). */
export const FINGERPRINT_KEY = 'ctrlrunFindingHash/v1';

/**
 * `--format sarif`: SARIF 2.1.0 as GitHub code scanning accepts it. Every rule is listed in
 * `rules[]` (so `ruleIndex` is stable); URIs are relative to the working directory under
 * `%SRCROOT%` (run `check` from the repository root).
 */
export function formatSarif(report: CheckReport, options: { readSource: SourceReader }): string {
  const rules: ReportingDescriptor[] = RULES.map((r) => ({
    id: r.id,
    name: camel(r.id),
    shortDescription: { text: r.short },
    fullDescription: { text: r.full },
    help: { text: r.help, markdown: r.help },
    helpUri: ruleDocsUri(r.id),
    defaultConfiguration: { level: r.severity },
    properties: { tags: ['security'], precision: 'high', 'problem.severity': r.severity === 'error' ? 'error' : 'warning' },
  }));
  const index = new Map(RULES.map((r, i) => [r.id, i]));
  const fingerprints = fingerprintsOf(report.findings, options.readSource);
  const results: Result[] = report.findings.map((f, i) => ({
    ruleId: f.ruleId,
    ruleIndex: index.get(f.ruleId) ?? -1,
    level: f.severity,
    message: { text: resultText(f) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: encodeUri(f.file), uriBaseId: '%SRCROOT%' },
          region: { startLine: Math.max(1, f.line), startColumn: Math.max(1, f.column) },
        },
      },
    ],
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprints[i]! },
  }));
  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'ctrlrun-gen', version: VERSION, semanticVersion: VERSION, informationUri: INFORMATION_URI, rules } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/**
 * A stable fingerprint per finding: SHA-256 of rule id, file and the finding's line with its
 * whitespace collapsed (so it survives lines moving), and the occurrence number among equal ones.
 */
function fingerprintsOf(findings: Finding[], readSource: SourceReader): string[] {
  const lines = new Map<string, string[] | undefined>();
  const seen = new Map<string, number>();
  // node:crypto loaded by SARIF only: check's other formats never load it (start-up)
  const { createHash } = process.getBuiltinModule('node:crypto');
  return findings.map((f) => {
    if (!lines.has(f.file)) lines.set(f.file, readSource(f.file)?.split(/\r?\n/));
    const text = (lines.get(f.file)?.[f.line - 1] ?? '').replace(/\s+/g, ' ').trim();
    const hash = createHash('sha256').update(`${f.ruleId}\0${f.file}\0${text}`).digest('hex').slice(0, 32);
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    return `${hash}:${n}`;
  });
}

/**
 * A result's message: what the files under review chose (a policy key, a tool name) with control,
 * bidi and invisible characters escaped and marked, as in the text report. Code scanning renders
 * the message on the pull request: a raw U+202E there reorders what the reviewer reads.
 */
function resultText(f: Finding): string {
  const message = terminalSafe(f.message);
  const hint = terminalSafeLines(f.hint);
  const note = message.marked || hint.marked ? `\n${MARK_NOTE}` : '';
  return `${message.text}\nHint: ${hint.text}${note}`;
}

function camel(id: string): string {
  return id.replace(/(^|-)([a-z])/g, (_, __, ch: string) => ch.toUpperCase());
}

/** A relative path as a URI reference (each segment percent-encoded). */
function encodeUri(file: string): string {
  return file
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}
