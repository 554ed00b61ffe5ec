/**
 * `--help` examples that a user can paste: yargs lays examples out in a two-column table whose
 * first column is capped at half the width and hard-wrapped, so a long command came out cut in two
 * lines (a broken command when pasted). yargs renders a per-command marker in their place
 * (`exampleMarker`) and `renderExamples` puts the examples back with every command on one line,
 * whatever the width. Pure.
 */

const MARKER_PREFIX = 'ctrlrun-gen-examples:';

/** The single-word epilogue yargs prints where example block `id` goes (never wrapped: no spaces). */
export function exampleMarker(id: number): string {
  return `${MARKER_PREFIX}${id}`;
}

/**
 * Replaces each marker line of `helpText` with its example block; a marker seen again (yargs runs
 * a command's builder twice on some usage errors) is dropped so the block shows once.
 */
export function replaceExampleMarkers(helpText: string, blocks: ReadonlyMap<number, ReadonlyArray<readonly [string, string]>>, width: number): string {
  const seen = new Set<number>();
  const out: string[] = [];
  for (const line of helpText.split('\n')) {
    const match = /^\s*ctrlrun-gen-examples:(\d+)\s*$/.exec(line);
    if (!match) {
      out.push(line);
      continue;
    }
    const id = Number(match[1]);
    const examples = blocks.get(id);
    if (seen.has(id) || !examples?.length) continue;
    seen.add(id);
    out.push(...renderExamples(examples, width).split('\n'));
  }
  return out.join('\n');
}

/**
 * The `Examples:` block. Two aligned columns when every row fits in `width`; otherwise each
 * command on its own line and its description under it, word-wrapped. A command is never broken.
 */
export function renderExamples(examples: ReadonlyArray<readonly [string, string]>, width: number): string {
  const indent = '  ';
  const commandWidth = Math.max(...examples.map(([cmd]) => cmd.length));
  const fits = examples.every(([, what]) => indent.length + commandWidth + 2 + what.length <= width);
  const lines = ['Examples:'];
  if (fits) {
    for (const [cmd, what] of examples) lines.push(`${indent}${what ? `${cmd.padEnd(commandWidth)}  ${what}` : cmd}`.trimEnd());
    return lines.join('\n');
  }
  const descIndent = '      ';
  for (const [cmd, what] of examples) {
    lines.push(`${indent}${cmd}`);
    for (const wrapped of wordWrap(what, Math.max(20, width - descIndent.length))) lines.push(`${descIndent}${wrapped}`);
  }
  return lines.join('\n');
}

/** Greedy word wrap; a word longer than `width` stays whole on its own line. */
export function wordWrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) lines.push(current);
  return lines;
}
