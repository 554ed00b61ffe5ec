import { FORMATS, type Format } from '../check/report/types.js';

/** The arguments of a plain `check` run, as yargs would give them to the command. */
export interface PlainCheck {
  args: {
    paths?: string[];
    format: Format;
    failOn: 'error' | 'warning';
    fix: false;
    allowDirty: false;
    manifest?: string;
    policy?: string;
  };
  /** `--cwd`, as given. */
  cwd?: string;
  debug: boolean;
}

const VALUE_OPTIONS = new Set(['format', 'fail-on', 'cwd', 'manifest', 'policy']);

/**
 * Start-up (issue 10): `check` as CI runs it (`check`, paths, `--format`, `--fail-on`, `--cwd`,
 * `--manifest`, `--policy`, `--debug`) skips the CLI framework, whose loading and parsing cost
 * about a tenth of a run. Only argv whose meaning is certain is taken: `check` first, each option
 * once, with a value that is not another option and is one of its choices, and paths that cannot
 * be read as a number or an option. Anything else (help, `--fix`, `--max-findings`, an unknown or
 * repeated option, `--no-…`, `--`, a usage error) returns undefined, and yargs parses it as before.
 * test/cli/plain-check.test.ts compares the result with yargs' own parse of the check command.
 */
export function plainCheckArgs(argv: readonly string[]): PlainCheck | undefined {
  if (argv[0] !== 'check') return undefined;
  const values = new Map<string, string>();
  const paths: string[] = [];
  let debug = false;
  for (let i = 1; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '--debug') {
      if (debug) return undefined;
      debug = true;
      continue;
    }
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      const name = eq < 0 ? token.slice(2) : token.slice(2, eq);
      if (!VALUE_OPTIONS.has(name) || values.has(name)) return undefined;
      const value = eq < 0 ? argv[++i] : token.slice(eq + 1);
      if (value === undefined || !plainWord(value)) return undefined;
      values.set(name, value);
      continue;
    }
    if (!plainWord(token)) return undefined;
    paths.push(token);
  }
  const format = values.get('format') ?? 'text';
  const failOn = values.get('fail-on') ?? 'error';
  if (!(FORMATS as readonly string[]).includes(format) || (failOn !== 'error' && failOn !== 'warning')) return undefined;
  const manifest = values.get('manifest');
  const policy = values.get('policy');
  const cwd = values.get('cwd');
  return {
    args: {
      ...(paths.length > 0 ? { paths } : {}),
      format: format as Format,
      failOn,
      fix: false,
      allowDirty: false,
      ...(manifest !== undefined ? { manifest } : {}),
      ...(policy !== undefined ? { policy } : {}),
    },
    ...(cwd !== undefined ? { cwd } : {}),
    debug,
  };
}

/** A word yargs keeps as the string it is: not empty, not an option, nothing that starts like a number. */
function plainWord(word: string): boolean {
  return word.length > 0 && !word.startsWith('-') && !/^\s*[+]?(\d|\.\d)/.test(word) && !['true', 'false', 'null', 'undefined'].includes(word);
}
