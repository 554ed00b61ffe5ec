/* Helpers the rules' messages share (each rule's module: src/check/rules/<id>.ts). */

/** `'name'` quoted for a message. */
export function quote(text: string): string {
  return `'${text}'`;
}
