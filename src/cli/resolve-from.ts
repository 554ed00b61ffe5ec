/**
 * A module resolve hook (node:module `register`) for the `ctrlrun-gen` bin: a bare specifier that
 * does not resolve where it is imported is resolved again from the companion package
 * `ctrlrun-gen-cli`, which depends on the CLI's tools. Relative and absolute specifiers, and every
 * other failure, are left as they are.
 */
let parentURL: string | undefined;

export function initialize(data: { parentURL: string }): void {
  parentURL = data.parentURL;
}

interface ResolveContext {
  parentURL?: string;
  conditions: string[];
  importAttributes: Record<string, string>;
}
type NextResolve = (specifier: string, context?: ResolveContext) => Promise<unknown>;

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<unknown> {
  try {
    return await next(specifier, context);
  } catch (error) {
    const bare = !/^(\.|\/|[a-z][a-z0-9+.-]*:)/i.test(specifier);
    if (!bare || !parentURL || (error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return next(specifier, { ...context, parentURL });
  }
}
