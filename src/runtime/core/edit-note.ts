/**
 * An edited call's output with the note that tells the model what ran ("Approved with changes by
 * bob: amount 250000 → 200000 …") before it, in the output's own shape where the SDK reads one: a
 * string gets the note as its first paragraph; a list of the SDK's output items (`{ type: 'text' }`,
 * images, files: what function and MCP tools return) gets a text item first; a text item gets the
 * note in its text; anything else becomes the note and the value's JSON, as the SDK would show it.
 */
export function withEditNote(output: unknown, note: string): unknown {
  if (typeof output === 'string') return `${note}\n\n${output}`;
  if (output === undefined || output === null) return note;
  if (Array.isArray(output) && output.length > 0 && output.every(isOutputItem)) return [{ type: 'text', text: note }, ...output];
  if (isOutputItem(output) && output.type === 'text' && typeof (output as { text?: unknown }).text === 'string') {
    return { ...output, text: `${note}\n\n${(output as unknown as { text: string }).text}` };
  }
  let shown: string;
  try {
    shown = JSON.stringify(output) ?? String(output);
  } catch {
    shown = String(output);
  }
  return `${note}\n\n${shown}`;
}

function isOutputItem(x: unknown): x is { type: string } {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && typeof (x as { type?: unknown }).type === 'string';
}
