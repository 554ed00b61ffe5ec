import path from 'node:path';

/**
 * Component files (Vue, Svelte, Astro single-file components; MDX) hold code in parts of their
 * text: `<script>` blocks, Astro's `---` frontmatter, MDX's `import`/`export` paragraphs. The
 * scanner reads that code in place: everything else is blanked to spaces (newlines kept), so every
 * offset, line and column of the code is the component's own and findings point into it.
 */
export const COMPONENT_EXTENSIONS = ['.vue', '.svelte', '.astro', '.mdx'] as const;

/** What to do with a door in a component, for check, the codemod and init alike. */
export const IN_COMPONENT_HINT =
  "in a component, move it to a module: define the agent's tools in a .ts (or .js) file the component imports (the codemod does not rewrite code inside components)";

export function isComponentFile(file: string): boolean {
  return (COMPONENT_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase());
}

/** The component's code, in place: `text` with everything that is not code blanked; `jsx` when a block is JSX/TSX. */
export interface ComponentScript {
  text: string;
  jsx: boolean;
}

export type Range = [start: number, end: number];

const SCRIPT = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script\s*>/gi;

/** The code ranges of a component's text, by its kind. */
export function componentScript(file: string, text: string): ComponentScript {
  const ext = path.extname(file).toLowerCase();
  const ranges: Range[] = [];
  let jsx = ext === '.mdx';
  if (ext === '.mdx') ranges.push(...mdxEsm(text));
  else {
    if (ext === '.astro') {
      const front = astroFrontmatter(text);
      if (front) ranges.push(front);
    }
    for (const m of text.matchAll(SCRIPT)) {
      const attrs = m[1] ?? '';
      if (/\blang\s*=\s*["']?(?:tsx|jsx)\b/i.test(attrs)) jsx = true;
      // `<script` (7 characters), the attributes, then `>`
      const start = m.index + 8 + attrs.length;
      ranges.push([start, start + m[2]!.length]);
    }
  }
  return { text: blankOutside(text, ranges), jsx };
}

/**
 * Where a component's code runs in the browser: all of a Vue or Svelte component's scripts (the
 * bundler ships them to the page; SSR runs them too), only the `<script>` tags of an Astro
 * component (its frontmatter runs on the server), none of an MDX file's ESM (compiled to a server
 * or static render). `all`, or the client ranges (offsets into the text).
 */
export function clientCode(file: string, text: string): 'all' | Range[] {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.vue' || ext === '.svelte') return 'all';
  if (ext !== '.astro') return [];
  const ranges: Range[] = [];
  for (const m of text.matchAll(SCRIPT)) {
    const start = m.index + 8 + (m[1] ?? '').length;
    ranges.push([start, start + m[2]!.length]);
  }
  return ranges;
}

/** Astro's frontmatter: the code between a `---` first line and the next `---` line. */
function astroFrontmatter(text: string): Range | undefined {
  const open = /^\uFEFF?\s*---[ \t]*\r?\n/.exec(text);
  if (!open) return undefined;
  const close = /^---[ \t]*$/m.exec(text.slice(open[0].length));
  const start = open[0].length;
  return [start, close ? start + close.index : text.length];
}

/** MDX's ESM: paragraphs (up to a blank line) that start with `import` or `export` at the line start, outside code fences. */
function mdxEsm(text: string): Range[] {
  const out: Range[] = [];
  let fence: string | undefined;
  let open: number | undefined;
  let at = 0;
  for (const line of text.split('\n')) {
    const end = at + line.length;
    const trimmed = line.trim();
    const marker = /^(`{3,}|~{3,})/.exec(trimmed)?.[1];
    if (open !== undefined && trimmed === '') {
      out.push([open, at]);
      open = undefined;
    }
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    } else if (marker && open === undefined) fence = marker;
    else if (open === undefined && /^(?:import|export)\b/.test(line)) open = at;
    at = end + 1;
  }
  if (open !== undefined) out.push([open, text.length]);
  return out;
}

/** `text` with every character outside `ranges` a space, line breaks kept. */
function blankOutside(text: string, ranges: readonly Range[]): string {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of sorted) {
    if (start < at) continue;
    out += blank(text.slice(at, start)) + text.slice(start, end);
    at = end;
  }
  return out + blank(text.slice(at));
}

const blank = (s: string): string => s.replace(/[^\r\n]/g, ' ');
