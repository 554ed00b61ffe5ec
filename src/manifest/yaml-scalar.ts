/** A name as a YAML scalar for a hint's manifest line: bare when plain, else double-quoted (`"Filesystem Server, via npx"`). */
export function yamlScalar(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_./-]*$/.test(name) ? name : JSON.stringify(name);
}
