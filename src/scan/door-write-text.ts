import type { DoorWrite } from './types.js';

/** How a door's property was written, for a message: "`sh.shell` is reassigned", "a copy of `sh` with another `shell`". */
export function doorWriteText(d: DoorWrite): string {
  const who = d.target !== undefined ? `\`${d.target}\`` : 'the door';
  const member = d.target !== undefined ? `\`${d.target}.${d.property}\`` : `its \`${d.property}\``;
  if (d.form === 'spread') return `a copy of ${who} with another \`${d.property}\``;
  if (d.form === 'object-assign') return `Object.assign() gives ${who} another \`${d.property}\``;
  if (d.form === 'reflection') return `${d.via ?? 'Reflection'}() gives ${who} another \`${d.property}\``;
  if (d.form === 'contents') return `${member} is changed in place (${d.inner === '[]' ? 'an element written' : `\`${d.inner}\``})`;
  return `${member} is reassigned`;
}

/** The text with its first letter a capital. */
export const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
