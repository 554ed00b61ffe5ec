import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import type { Alias, Node, Scalar as YamlScalar, YAMLMap, YAMLSeq } from 'yaml';
import type { Diagnostic } from '../diagnostics.js';
import type { Scalar, SourceLocation } from './types.js';
import { resolvePlain } from './yaml11.js';

/**
 * A located reader over one YAML document: the shared machinery of the policy and manifest
 * loaders. It never throws on user input; every problem becomes a Diagnostic (all of them are
 * collected, not only the first). Aliases are resolved here with an expansion budget, so an
 * alias bomb fails fast; duplicate keys are found here in linear time.
 */

/** Nodes reachable through aliases, in total, before a document is refused as an alias bomb. */
export const MAX_ALIAS_EXPANSION = 10_000;

export type Related = Diagnostic['related'];

export interface Entry {
  key: string;
  keyNode: Node;
  /** The value with aliases resolved; null when the value is missing or could not be resolved. */
  value: Node | null;
  /** Where to point at the value (the key when the value is empty). */
  at: Node;
  path: string;
}

/** What a scalar or collection is, for type checks and messages. */
export type Kind =
  | { kind: 'string'; value: string }
  /** An exact integer: a `number` when safe, a `bigint` beyond 2^53 (YAML 1.1 documents only). */
  | { kind: 'int'; value: number | bigint }
  | { kind: 'timestamp'; source: string }
  | { kind: 'invalid'; source: string; why: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' }
  | { kind: 'float'; source: string }
  | { kind: 'non-finite'; source: string }
  | { kind: 'huge-int'; source: string }
  | { kind: 'map' }
  | { kind: 'seq' }
  | { kind: 'other' };

const INT_SOURCE = /^[-+]?(?:[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+)$/;

function pathKey(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

function pathIndex(base: string, index: number): string {
  return `${base}[${index}]`;
}

export function describeKind(k: Kind): string {
  switch (k.kind) {
    case 'string':
      return 'a string';
    case 'int':
      return 'an integer';
    case 'bool':
      return 'a boolean';
    case 'null':
      return 'an empty value (null)';
    case 'float':
      return `a float (\`${k.source}\`)`;
    case 'non-finite':
      return `a non-finite number (\`${k.source}\`)`;
    case 'huge-int':
      return `an integer beyond 2^53 (\`${k.source}\`)`;
    case 'timestamp':
      return `a YAML 1.1 timestamp (\`${k.source}\`; quote it for a string)`;
    case 'invalid':
      return `a value YAML 1.1 cannot construct (\`${k.source}\`)`;
    case 'map':
      return 'a mapping';
    case 'seq':
      return 'a list';
    default:
      return 'an unsupported value';
  }
}

/** Thrown by the reader after reporting a problem that makes reading the rest pointless (an alias bomb). */
class DocumentRefused extends Error {
  constructor() {
    super('document refused');
    this.name = 'DocumentRefused';
  }
}

/** The result of loading a YAML file: a value when there are no errors, and every diagnostic found. */
export interface LoadResult<T> {
  value?: T;
  diagnostics: Diagnostic[];
  /** The file's text (for code frames). */
  source: string;
}

export interface OpenOptions {
  maxBytes: number;
  /** `policy` or `manifest`, for messages. */
  what: string;
  /** The first line to suggest for an empty file. */
  firstKeyHint: string;
  /**
   * Read plain scalars as YAML 1.1 (PyYAML's `safe_load`, as CTRLRun reads a policy): `no` is false,
   * `017` is 15, integers of any size. Default: YAML 1.2 (the manifest).
   */
  yaml11?: boolean;
}

/**
 * Opens `text` and hands its root to `read`, which reports through the reader. The value is kept
 * only when nothing was reported as an error. Never throws: an alias bomb ends with what was
 * reported; anything else unexpected becomes an `internal` diagnostic.
 */
export function readDocument<T>(text: string, file: string, options: OpenOptions, read: (reader: YamlReader, root: Node) => T | undefined): LoadResult<T> {
  let opened: YamlReader | undefined;
  try {
    const { reader, root } = YamlReader.open(text, file, options);
    opened = reader;
    const value = root === undefined ? undefined : read(reader, root);
    const diagnostics = reader.sortedDiagnostics();
    if (value === undefined || reader.errorCount > 0) return { diagnostics, source: text };
    return { value, diagnostics, source: text };
  } catch (error) {
    if (error instanceof DocumentRefused && opened) return { diagnostics: opened.sortedDiagnostics(), source: text };
    return { diagnostics: [internalError(file, error)], source: text };
  }
}

function internalError(file: string, error: unknown): Diagnostic {
  const message = error instanceof Error ? error.message : String(error);
  return {
    severity: 'error',
    file,
    line: 1,
    column: 1,
    code: 'internal',
    message: `internal error while reading the file: ${message}`,
    hint: 'please report this with the file attached',
  };
}

export class YamlReader {
  readonly diagnostics: Diagnostic[] = [];
  private readonly aliasTargets = new Map<Alias, Node | undefined>();
  private doc: ReturnType<typeof parseDocument> | undefined;
  private anchorsIndexed = false;
  private readonly expandedSizes = new Map<Node, number>();
  private readonly sizing = new Set<Node>();
  private expanded = 0;

  private constructor(
    readonly file: string,
    readonly text: string,
    private readonly lineCounter: LineCounter,
    /** `policy` or `manifest`, for messages. */
    private readonly what: string,
    private readonly yaml11: boolean,
  ) {}

  /**
   * Parses `text` as exactly one YAML 1.2 document. Returns the reader (holding any diagnostics)
   * and the root node when the YAML itself is well-formed and not empty.
   */
  static open(text: string, file: string, options: OpenOptions): { reader: YamlReader; root?: Node } {
    const lineCounter = new LineCounter();
    const yaml11 = options.yaml11 === true;
    const reader = new YamlReader(file, text, lineCounter, options.what, yaml11);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > options.maxBytes) {
      reader.errorAt(
        0,
        '',
        'file-too-large',
        `the ${options.what} is ${formatBytes(bytes)}; the limit is ${formatBytes(options.maxBytes)}`,
        `a ${options.what} this large is almost certainly not hand-written; split it or check the path`,
      );
      return { reader };
    }
    let doc: ReturnType<typeof parseDocument>;
    try {
      doc = parseDocument(text, {
        lineCounter,
        keepSourceTokens: true,
        // Duplicate keys are found by the reader (linear time, both places named); the library's
        // check is quadratic in the size of a mapping.
        uniqueKeys: false,
        prettyErrors: false,
        strict: true,
        // YAML 1.1 documents: every scalar a string here; plain ones are resolved by `kindOf` as PyYAML does.
        ...(yaml11 ? { version: '1.1' as const, schema: 'failsafe' } : { version: '1.2' as const }),
        merge: false,
        // No toJS: the reader walks the nodes and expands aliases itself, within MAX_ALIAS_EXPANSION.
      });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      reader.errorAt(0, '', 'too-deep', `the ${options.what} nests too deeply to read`, 'a policy is a few levels deep; check the file');
      return { reader };
    }
    for (const e of [...doc.errors, ...doc.warnings]) {
      const message =
        e.code === 'MULTIPLE_DOCS'
          ? `the ${options.what} must be one YAML document; this file has more than one (a \`---\` separator?)`
          : `invalid YAML: ${firstLine(e.message)}`;
      reader.errorAt(
        e.pos[0],
        '',
        'yaml-syntax',
        message,
        e.code === 'MULTIPLE_DOCS'
          ? 'remove the `---` line and keep one document'
          : 'check the indentation (spaces, not tabs), brackets and quotes at this point',
      );
    }
    if (reader.diagnostics.length > 0) return { reader };
    const root = doc.contents as Node | null;
    if (root === null || (isScalar(root) && (root.value === null || (yaml11 && root.type === 'PLAIN' && resolvePlain(String(root.value)).kind === 'null')))) {
      reader.errorAt(0, '', 'empty-document', `the ${options.what} is empty`, `start with \`${options.firstKeyHint}\``);
      return { reader };
    }
    reader.doc = doc;
    return { reader, root };
  }

  // ---------------------------------------------------------------------------------------------
  // Locations and diagnostics

  locOf(at: Node | number | null | undefined): SourceLocation {
    const offset = typeof at === 'number' ? at : (at?.range?.[0] ?? 0);
    if (this.lineCounter.lineStarts.length === 0) return { file: this.file, line: 1, column: 1 };
    const { line, col } = this.lineCounter.linePos(Math.max(0, Math.min(offset, this.text.length)));
    return { file: this.file, line, column: col };
  }

  /** The offset of a 1-based line and column (the inverse of `locOf`). */
  offsetAt(loc: Pick<SourceLocation, 'line' | 'column'>): number {
    const start = this.lineCounter.lineStarts[loc.line - 1] ?? 0;
    return start + loc.column - 1;
  }

  /**
   * The document as plain values, as PyYAML's `safe_load` would give it (aliases expanded within the
   * budget): mappings with string keys, lists, strings, booleans, null, integers (`bigint` beyond
   * 2^53). Called on a document that loaded without errors; anything else becomes undefined.
   */
  plain(node: Node | null, path: string): unknown {
    if (node === null) return null;
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const e of this.entries(node, path))
        Object.defineProperty(out, e.key, { value: this.plain(e.value, e.path), enumerable: true, writable: true, configurable: true });
      return out;
    }
    if (isSeq(node)) return this.items(node, path).map((item) => this.plain(item.node, item.path));
    const k = this.kindOf(node);
    switch (k.kind) {
      case 'string':
      case 'bool':
      case 'int':
        return k.value;
      case 'null':
        return null;
      default:
        return undefined;
    }
  }

  /** Every error carries a hint: what to write instead. */
  errorAt(at: Node | number | null | undefined, path: string, code: string, message: string, hint: string, related?: Related): void {
    this.report('error', at, path, code, message, hint, related);
  }

  warnAt(at: Node | number | null | undefined, path: string, code: string, message: string, hint?: string): void {
    this.report('warning', at, path, code, message, hint);
  }

  private report(
    severity: Diagnostic['severity'],
    at: Node | number | null | undefined,
    path: string,
    code: string,
    message: string,
    hint?: string,
    related?: Related,
  ): void {
    const loc = this.locOf(at);
    const d: Diagnostic = { severity, file: this.file, line: loc.line, column: loc.column, message, code };
    if (path !== '') d.path = path;
    if (hint !== undefined) d.hint = hint;
    if (related !== undefined) d.related = related;
    this.diagnostics.push(d);
  }

  /** Every diagnostic, in document order. */
  sortedDiagnostics(): Diagnostic[] {
    return [...this.diagnostics].sort((a, b) => a.line - b.line || a.column - b.column);
  }

  get errorCount(): number {
    return this.diagnostics.filter((d) => d.severity === 'error').length;
  }

  /** Offset of the character at `index` in a scalar's value, when the source spells the value verbatim. */
  offsetInScalar(node: Node, index: number): number {
    const start = node.range?.[0] ?? 0;
    if (!isScalar(node) || typeof node.value !== 'string') return start;
    const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' ? 1 : 0;
    if (node.type !== 'PLAIN' && quoted === 0) return start;
    const spelled = this.text.slice(start + quoted, start + quoted + node.value.length);
    return spelled === node.value ? start + quoted + index : start;
  }

  // ---------------------------------------------------------------------------------------------
  // Aliases

  /** Built on the first alias met (most files have none): alias -> the anchored node it names. */
  private indexAnchors(doc: ReturnType<typeof parseDocument>): void {
    this.anchorsIndexed = true;
    const current = new Map<string, Node>();
    visit(doc, {
      Node: (_key, node) => {
        if (isAlias(node)) this.aliasTargets.set(node, current.get(node.source));
        else if (node.anchor) current.set(node.anchor, node);
      },
    });
  }

  /**
   * How many nodes `node` stands for once every alias inside it is expanded (memoized). A cycle
   * or an absurd nesting of aliases counts as infinite.
   */
  private expandedSize(node: Node, depth = 0): number {
    const known = this.expandedSizes.get(node);
    if (known !== undefined) return known;
    if (depth > 200 || this.sizing.has(node)) return Infinity;
    this.sizing.add(node);
    let size = 1;
    const add = (child: unknown): void => {
      if (child === null || child === undefined || size === Infinity) return;
      if (isAlias(child)) {
        const target = this.aliasTargets.get(child);
        size += target === undefined ? 1 : this.expandedSize(target, depth + 1);
      } else {
        size += this.expandedSize(child as Node, depth + 1);
      }
    };
    if (isMap(node)) {
      for (const pair of node.items) {
        add(pair.key);
        add(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) add(item);
    }
    this.sizing.delete(node);
    this.expandedSizes.set(node, size);
    return size;
  }

  /** The node itself, or what an alias refers to (within the expansion budget); null when unusable. */
  deref(node: unknown, path: string): Node | null {
    if (node === null || node === undefined) return null;
    if (!isAlias(node)) return node as Node;
    if (!this.anchorsIndexed && this.doc !== undefined) this.indexAnchors(this.doc);
    const target = this.aliasTargets.get(node);
    if (target === undefined) {
      this.errorAt(
        node,
        path,
        'unknown-anchor',
        `the alias \`*${node.source}\` refers to no anchor defined before it`,
        `define \`&${node.source}\` earlier in the file`,
      );
      return null;
    }
    this.expanded += this.expandedSize(target);
    if (this.expanded > MAX_ALIAS_EXPANSION) {
      this.errorAt(
        node,
        path,
        'alias-limit',
        `aliases expand to more than ${MAX_ALIAS_EXPANSION} nodes (or refer to themselves); refusing the document`,
        'write the repeated parts out, or use fewer nested aliases',
      );
      throw new DocumentRefused();
    }
    return target;
  }

  // ---------------------------------------------------------------------------------------------
  // Typed reads. Each returns undefined after reporting when the node is not what is expected.

  kindOf(node: Node | null): Kind {
    if (node === null) return { kind: 'null' };
    if (isMap(node)) return { kind: 'map' };
    if (isSeq(node)) return { kind: 'seq' };
    if (!isScalar(node)) return { kind: 'other' };
    if (this.yaml11) {
      const text = String(node.value);
      // Quoted, block and `!!str` scalars are strings; a plain one is resolved as PyYAML resolves it.
      if (node.type !== 'PLAIN' || node.tag !== undefined) return { kind: 'string', value: text };
      return resolvePlain(text);
    }
    const value: unknown = node.value;
    const source = typeof node.source === 'string' ? node.source : String(value);
    if (value === null) return { kind: 'null' };
    if (typeof value === 'string') return { kind: 'string', value };
    if (typeof value === 'boolean') return { kind: 'bool', value };
    if (typeof value === 'bigint') return { kind: 'huge-int', source };
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { kind: 'non-finite', source };
      if (!INT_SOURCE.test(source.trim()) || !Number.isInteger(value)) return { kind: 'float', source };
      if (!Number.isSafeInteger(value)) return { kind: 'huge-int', source };
      return { kind: 'int', value: value === 0 ? 0 : value };
    }
    return { kind: 'other' };
  }

  /** Reports a value of the wrong kind, with the specific codes for floats, NaN/inf and huge integers. */
  wrongKind(node: Node | null, at: Node, path: string, expected: string): void {
    if (node === null && isAlias(at)) return; // an unresolvable alias: already reported by deref
    const k = this.kindOf(node);
    const where = node ?? at;
    if (k.kind === 'float')
      this.errorAt(
        where,
        path,
        'float',
        `floats are not allowed: \`${k.source}\`; expected ${expected}`,
        'use an integer (for money, count the smallest unit: cents)',
      );
    else if (k.kind === 'non-finite')
      this.errorAt(where, path, 'non-finite', `\`${k.source}\` (NaN or infinity) is not allowed; expected ${expected}`, 'use an integer');
    else if (k.kind === 'huge-int')
      this.errorAt(
        where,
        path,
        'huge-int',
        `\`${k.source}\` is beyond the safe integer range (±2^53-1); expected ${expected}`,
        'use an integer between -9007199254740991 and 9007199254740991',
      );
    else if (k.kind === 'invalid') this.errorAt(where, path, 'yaml-value', `${k.why}; expected ${expected}`, 'quote the value to make it a string');
    else if (k.kind === 'timestamp')
      this.errorAt(where, path, 'type', `expected ${expected}, found ${describeKind(k)}`, `quote it (\`"${k.source}"\`) if it is meant as a string`);
    else
      this.errorAt(where, path, 'type', `expected ${expected}, found ${describeKind(k)}`, `write ${expected} here (docs/${this.what}.md describes every key)`);
  }

  map(node: Node | null, at: Node, path: string, expected = 'a mapping'): YAMLMap | undefined {
    if (node !== null && isMap(node)) return node;
    this.wrongKind(node, at, path, expected);
    return undefined;
  }

  seq(node: Node | null, at: Node, path: string, expected = 'a list'): YAMLSeq | undefined {
    if (node !== null && isSeq(node)) return node;
    this.wrongKind(node, at, path, expected);
    return undefined;
  }

  string(node: Node | null, at: Node, path: string, expected = 'a string'): string | undefined {
    const k = this.kindOf(node);
    if (k.kind === 'string') {
      if (k.value.length === 0) {
        this.errorAt(node ?? at, path, 'empty-string', `expected ${expected}, found an empty string`, 'give it a value, or remove the key');
        return undefined;
      }
      return k.value;
    }
    this.wrongKind(node, at, path, expected);
    return undefined;
  }

  /** An integer within `range` (`max` omitted: no upper bound; a value beyond 2^53 is then clamped to 2^53-1). */
  int(node: Node | null, at: Node, path: string, range: { min: number; max?: number }): number | undefined {
    const k = this.kindOf(node);
    const expected = range.max === undefined ? `an integer of at least ${range.min}` : `an integer from ${range.min} to ${range.max}`;
    if (k.kind !== 'int') {
      this.wrongKind(node, at, path, expected);
      return undefined;
    }
    if (k.value < range.min || (range.max !== undefined && k.value > range.max)) {
      this.errorAt(
        node ?? at,
        path,
        'out-of-range',
        `${k.value} is out of range; expected ${expected}`,
        range.max === undefined ? `use a value of at least ${range.min}` : `use a value from ${range.min} to ${range.max}`,
      );
      return undefined;
    }
    return typeof k.value === 'bigint' ? Number.MAX_SAFE_INTEGER : k.value;
  }

  /** A `when` scalar: null, an integer (any size), a string or a boolean. */
  scalar(node: Node | null, at: Node, path: string, expected = 'an integer, a string, a boolean or null'): Scalar | undefined {
    const k = this.kindOf(node);
    if (k.kind === 'int' || k.kind === 'string' || k.kind === 'bool') return k.value;
    if (k.kind === 'null') return null;
    this.wrongKind(node, at, path, expected);
    return undefined;
  }

  /** The entries of a mapping, keys as strings, duplicates reported (the first one is kept). */
  entries(map: YAMLMap, path: string): Entry[] {
    const seen = new Map<string, Node>();
    const out: Entry[] = [];
    for (const pair of map.items) {
      const keyNode = pair.key as Node | null;
      if (keyNode === null || keyNode === undefined) {
        this.errorAt(map, path, 'bad-key', 'a mapping entry has no key', 'write `name: value`');
        continue;
      }
      let key: string;
      const keyKind = this.yaml11 && isScalar(keyNode) ? this.kindOf(keyNode) : undefined;
      if (keyKind !== undefined && keyKind.kind !== 'string') {
        // CTRLRun's keys are strings: `on:` is the boolean true in YAML 1.1, `1:` an integer.
        this.errorAt(
          keyNode,
          path,
          'bad-key',
          `the key \`${String((keyNode as YamlScalar).value)}\` is ${describeKind(keyKind)} in YAML 1.1, not a string`,
          `quote it: \`"${String((keyNode as YamlScalar).value)}":\``,
        );
        continue;
      } else if (isScalar(keyNode) && keyNode.value !== null && ['string', 'number', 'boolean'].includes(typeof keyNode.value)) {
        key = typeof keyNode.value === 'string' ? keyNode.value : String((keyNode as YamlScalar).source ?? keyNode.value);
      } else {
        this.errorAt(
          keyNode,
          path,
          'bad-key',
          isAlias(keyNode) ? 'an alias cannot be a key here' : 'a key must be a plain name (a string)',
          'write `name: value` with a plain name',
        );
        continue;
      }
      const first = seen.get(key);
      const entryPath = pathKey(path, key);
      if (first !== undefined) {
        const firstLoc = this.locOf(first);
        this.errorAt(
          keyNode,
          entryPath,
          'duplicate-key',
          `duplicate key \`${key}\` (first at line ${firstLoc.line})`,
          'a key may appear once in a mapping; merge the two entries',
          {
            ...firstLoc,
            message: `\`${key}\` first defined here`,
          },
        );
        continue;
      }
      seen.set(key, keyNode);
      const value = this.deref(pair.value, entryPath);
      const at = value ?? (isAlias(pair.value) ? (pair.value as Node) : keyNode);
      out.push({ key, keyNode, value, at, path: entryPath });
    }
    return out;
  }

  /** The items of a list with aliases resolved (null for an unusable item). */
  items(seq: YAMLSeq, path: string): Array<{ node: Node | null; at: Node; path: string; index: number }> {
    return seq.items.map((item, index) => {
      const itemPath = pathIndex(path, index);
      const node = this.deref(item, itemPath);
      return { node, at: node ?? (item as Node) ?? seq, path: itemPath, index };
    });
  }
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/\s+at line \d+, column \d+:?$/, '');
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
