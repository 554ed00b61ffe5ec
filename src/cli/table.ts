/** Left-aligned columns separated by two spaces; the header first. Pure. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** An epoch-ms time as ISO 8601 (UTC), or '-' when absent. */
/** A stored time as ISO text; one out of Date's range (a store written by hand) is its number, never an exit 2 for everyone. */
export function isoTime(ms: number | undefined | null): string {
  if (ms === undefined || ms === null) return '-';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? `(invalid time ${String(ms)})` : d.toISOString();
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
