/**
 * The specifier Node would name a package's module by, for the specifiers other runtimes load a
 * package by (issue 40 item 4, gap I): Deno's `npm:` (and `jsr:`) followed by the package name, an
 * optional `@version` and an optional subpath (`npm:@openai/agents@^0.20/realtime` →
 * `@openai/agents/realtime`), and a URL whose path is the same (`https://esm.sh/@openai/agents@0.20.0`,
 * `https://cdn.jsdelivr.net/npm/@openai/agents/+esm` → `@openai/agents`). Any other specifier is
 * returned as it is. Pure: every reader that asks whether a specifier is the SDK (or zod) asks
 * through it, so an edge function loading the SDK so is read as one loading it by name.
 */

/** A package name: an optional `@scope/`, then the name (neither holds `@`, `/` or a query). */
const PACKAGE = '(?<name>(?:@[^/@\\s?#]+/)?[^/@\\s?#:]+)';
/** An optional version or range after the name (`@0.20.0`, `@^0.20`, `@latest`). */
const VERSION = '(?:@(?<version>[^/\\s?#]*))?';
/** An optional subpath (`/realtime`). */
const SUBPATH = '(?<sub>/[^\\s?#]*)?';

/** Deno's package specifiers: `npm:` and `jsr:` (Deno also takes `npm:/name`). */
const RUNTIME = new RegExp(`^(?:npm|jsr):/?${PACKAGE}${VERSION}${SUBPATH}$`);

/**
 * A URL serving a package by its name, on any host (a host is no proof of what it serves, and
 * taking a URL that names the SDK for the SDK fails closed): the path may start with a CDN's own
 * prefix (jsdelivr's `npm/`, esm.sh's pinned build `v135/` or its `*` that leaves dependencies
 * external); a query or fragment (`?target=deno`) is not part of the name.
 */
const URL_FORM = new RegExp(`^https?://[^/?#\\s]+/(?:npm/|v\\d+/|\\*)?${PACKAGE}${VERSION}${SUBPATH}(?:[?#].*)?$`);

/** jsdelivr's last segment asking for an ES module build (`/+esm`): no subpath of the package. */
const ESM_BUILD = /\/\+esm$/;

export function bareSpecifier(specifier: string): string {
  // the common case first: a bare name or a relative path holds no scheme
  if (!specifier.includes(':')) return specifier;
  const m = RUNTIME.exec(specifier) ?? URL_FORM.exec(specifier);
  if (!m?.groups) return specifier;
  const sub = (m.groups['sub'] ?? '').replace(ESM_BUILD, '').replace(/\/+$/, '');
  return `${m.groups['name']}${sub}`;
}

/** Whether `specifier` loads a package by a runtime's own specifier or a URL (it is not the bare name Node resolves). */
export function isRuntimeSpecifier(specifier: string): boolean {
  return bareSpecifier(specifier) !== specifier;
}

/**
 * The version or range a runtime's specifier or a URL pins its package to (`npm:@openai/agents@0.19.0`
 * → `0.19.0`, `https://esm.sh/@openai/agents@^0.20/realtime` → `^0.20`); undefined for a bare name,
 * a relative path, or one that pins none. The package is `bareSpecifier`'s.
 */
export function specifierVersion(specifier: string): string | undefined {
  if (!specifier.includes(':')) return undefined;
  const version = (RUNTIME.exec(specifier) ?? URL_FORM.exec(specifier))?.groups?.['version'];
  return version || undefined;
}
