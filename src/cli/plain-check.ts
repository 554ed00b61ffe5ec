import { FORMATS, type Format } from '../check/report/types.js';

/** The arguments of a plain `check` run, as yargs would give them to the command. */
export interface PlainCheck {
  command: 'check';
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

/** The arguments of a plain `codemod` run, as yargs would give them to the command. */
export interface PlainCodemod {
  command: 'codemod';
  args: {
    paths?: string[];
    write: boolean;
    allowDirty: boolean;
    json: boolean;
    format: 'text' | 'json';
    manifest?: string;
    policy?: string;
  };
  /** `--cwd`, as given. */
  cwd?: string;
  debug: boolean;
}

/** A command run without yargs (src/cli/plain-main.ts). */
export type PlainCommand = PlainCheck | PlainCodemod;

/** What a plain argv holds: the options with values, the flags given, the paths. */
interface PlainWords {
  values: Map<string, string>;
  flags: Set<string>;
  paths: string[];
}

/**
 * The words after `command`, when each means to yargs exactly what it reads as: each option once,
 * a value option with a plain word for its value, a flag (a boolean) bare, and paths that cannot be
 * read as a number or an option. Undefined for anything else (help, `--no-…`, `--flag=false`, `--`,
 * an unknown or repeated option), which yargs then parses as before. `--debug` is a flag of every
 * command.
 */
function plainWords(argv: readonly string[], command: string, valueOptions: ReadonlySet<string>, flagOptions: ReadonlySet<string>): PlainWords | undefined {
  if (argv[0] !== command) return undefined;
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const paths: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const token = argv[i]!;
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      const name = eq < 0 ? token.slice(2) : token.slice(2, eq);
      if (values.has(name) || flags.has(name)) return undefined;
      if (eq < 0 && (name === 'debug' || flagOptions.has(name))) {
        flags.add(name);
        continue;
      }
      if (!valueOptions.has(name)) return undefined;
      const value = eq < 0 ? argv[++i] : token.slice(eq + 1);
      if (value === undefined || !plainWord(value)) return undefined;
      values.set(name, value);
      continue;
    }
    if (!plainWord(token)) return undefined;
    paths.push(token);
  }
  return { values, flags, paths };
}

const CHECK_VALUES = new Set(['format', 'fail-on', 'cwd', 'manifest', 'policy']);
const NO_FLAGS = new Set<string>();

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
  const words = plainWords(argv, 'check', CHECK_VALUES, NO_FLAGS);
  if (!words) return undefined;
  const { values, paths } = words;
  const format = values.get('format') ?? 'text';
  const failOn = values.get('fail-on') ?? 'error';
  if (!(FORMATS as readonly string[]).includes(format) || (failOn !== 'error' && failOn !== 'warning')) return undefined;
  const manifest = values.get('manifest');
  const policy = values.get('policy');
  const cwd = values.get('cwd');
  return {
    command: 'check',
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
    debug: words.flags.has('debug'),
  };
}

const CODEMOD_VALUES = new Set(['format', 'cwd', 'manifest', 'policy']);
const CODEMOD_FLAGS = new Set(['write', 'allow-dirty', 'json']);

/**
 * Start-up (issue 40, item 8): `codemod` as a user or a script runs it (paths, `--write`,
 * `--allow-dirty`, `--format`, `--json`, `--cwd`, `--manifest`, `--policy`, `--debug`) skips the
 * CLI framework too (~40 ms of CPU a run). The same certainty as a plain check's: anything else
 * is yargs' to parse. test/cli/plain-check.test.ts compares the result with yargs' parse.
 */
export function plainCodemodArgs(argv: readonly string[]): PlainCodemod | undefined {
  const words = plainWords(argv, 'codemod', CODEMOD_VALUES, CODEMOD_FLAGS);
  if (!words) return undefined;
  const { values, flags, paths } = words;
  const format = values.get('format') ?? 'text';
  if (format !== 'text' && format !== 'json') return undefined;
  const manifest = values.get('manifest');
  const policy = values.get('policy');
  const cwd = values.get('cwd');
  return {
    command: 'codemod',
    args: {
      ...(paths.length > 0 ? { paths } : {}),
      write: flags.has('write'),
      allowDirty: flags.has('allow-dirty'),
      json: flags.has('json'),
      format,
      ...(manifest !== undefined ? { manifest } : {}),
      ...(policy !== undefined ? { policy } : {}),
    },
    ...(cwd !== undefined ? { cwd } : {}),
    debug: flags.has('debug'),
  };
}

/** The plain command `argv` runs, if any. */
export function plainCommandArgs(argv: readonly string[]): PlainCommand | undefined {
  return plainCheckArgs(argv) ?? plainCodemodArgs(argv);
}

/** A word yargs keeps as the string it is: not empty, not an option, nothing that starts like a number. */
function plainWord(word: string): boolean {
  return word.length > 0 && !word.startsWith('-') && !/^\s*[+]?(\d|\.\d)/.test(word) && !['true', 'false', 'null', 'undefined'].includes(word);
}
