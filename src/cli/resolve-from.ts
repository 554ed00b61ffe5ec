/**
 * A module resolve hook (node:module `register`) for the `ctrlrun-gen` bin. The companion package
 * `ctrlrun-gen-cli` depends on the CLI's tools: an import of one of them (`tools`) from the CLI's
 * own code (under `selfURL`) resolves from the companion first, since the app may hoist another
 * version of the same package where ctrlrun-gen would find it (a ts-morph 12 under `@vercel/node`
 * crashed init). Any other bare specifier that does not resolve where it is imported is resolved
 * again from the companion. Relative and absolute specifiers, and every other failure, are left as
 * they are; the app's own imports are never redirected.
 */
let parentURL: string | undefined;
let selfURL: string | undefined;
let tools: ReadonlySet<string> = new Set();

export function initialize(data: { parentURL: string; selfURL?: string; tools?: string[] }): void {
  parentURL = data.parentURL;
  selfURL = data.selfURL;
  tools = new Set(data.tools ?? []);
}

interface ResolveContext {
  parentURL?: string;
  conditions: string[];
  importAttributes: Record<string, string>;
}
type NextResolve = (specifier: string, context?: ResolveContext) => Promise<unknown>;

/** `@scope/name` or `name` of a bare specifier (`@modelcontextprotocol/sdk/server/mcp.js`, `hono/streaming`). */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<unknown> {
  const bare = !/^(\.|\/|[a-z][a-z0-9+.-]*:)/i.test(specifier);
  const fromSelf = selfURL !== undefined && context.parentURL?.startsWith(selfURL) === true;
  if (bare && parentURL && fromSelf && tools.has(packageNameOf(specifier))) {
    try {
      return await next(specifier, { ...context, parentURL });
    } catch {
      // not in the companion's tree after all: resolve it where it is imported
    }
  }
  try {
    return await next(specifier, context);
  } catch (error) {
    if (!bare || !parentURL || (error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return next(specifier, { ...context, parentURL });
  }
}
