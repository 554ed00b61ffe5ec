import { bareSpecifier } from '../../scan/bare-specifier.js';
import type { Finding, ProjectContext, RuleMeta, ScannedFile } from '../types.js';
import { findingOf } from './rule-finding.js';

export const tracingSensitiveDataMeta: RuleMeta = {
  id: 'tracing-sensitive-data',
  severity: 'warning',
  short: '`@openai/agents` is imported and its tracing sends tool inputs and outputs out.',
  full: "Importing `@openai/agents` installs the default trace exporter, which sends every tool call's input and output to a fixed endpoint. Nowhere in the repo is tracing disabled (`setTracingDisabled(true)`, or `tracingDisabled: true` in the config of the SDK's `new Runner(...)`) or `traceIncludeSensitiveData: false` set there. The same flags in any other object literal do nothing and do not count.",
  help: 'Call `setTracingDisabled(true)` at startup, or run with `traceIncludeSensitiveData: false` in the run config.',
};

/** A quoted string naming `@openai/agents`, maybe by Deno's `npm:` or a URL (`bareSpecifier` decides). */
const AGENTS_SPECIFIER = /(['"])([^'"\n]*@openai\/agents[^'"\n]*)\1/g;

/**
 * `tracing-sensitive-data` (warning, repo-wide): `@openai/agents` (whose import installs the default
 * trace exporter) is imported somewhere, and no file disables tracing or sets
 * `traceIncludeSensitiveData: false`. Reported once, at the first such import (files in path order).
 */
export function tracingSensitiveDataRule(files: ScannedFile[], _project?: ProjectContext): Finding[] {
  if (files.some((f) => f.scan.disablesSensitiveTracing)) return [];
  const candidates = files.filter((f) => f.scan.importsSdk && !f.scan.parseError).sort((a, b) => compare(a.scan.file, b.scan.file));
  for (const file of candidates) {
    const at = locate(file.text());
    if (!at) continue;
    return [
      findingOf(
        tracingSensitiveDataMeta,
        file.scan.file,
        at,
        '`@openai/agents` is imported and nothing in the repo disables tracing or sets `traceIncludeSensitiveData: false`: tool inputs and outputs go to the default trace exporter.',
        'Call `setTracingDisabled(true)` at startup, or pass `traceIncludeSensitiveData: false` in the run config.',
      ),
    ];
  }
  return [];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** 1-based line and column of the first `'@openai/agents'` specifier in the text (or `'npm:@openai/agents@0.20.0'`, …). */
function locate(text: string): { line: number; column: number } | undefined {
  const match = firstAgentsSpecifier(text);
  if (!match) return undefined;
  const before = text.slice(0, match.index);
  const line = before.split('\n').length;
  const column = match.index - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}

function firstAgentsSpecifier(text: string): RegExpExecArray | undefined {
  for (const m of text.matchAll(AGENTS_SPECIFIER)) if (bareSpecifier(m[2]!) === '@openai/agents') return m;
  return undefined;
}
