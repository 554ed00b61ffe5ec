/**
 * The mapped tools' parameter schemas of a project, read from its code as `generate` reads them
 * (the repo scanned from the manifest's root). The I/O shell around tool-schemas.ts, for the
 * commands that read no code otherwise (`diff`, `validate`).
 */
import type { Manifest } from '../manifest/types.js';
import { findToolDeclarations } from './declarations.js';
import { actionSchemas, type ActionSchemas } from './tool-schemas.js';

export function readActionSchemas(manifest: Manifest): ActionSchemas {
  const names = new Set(manifest.tools.flatMap((t) => (t.kind === 'function' ? [t.tool] : [])));
  return actionSchemas(manifest, findToolDeclarations(manifest.root, names, { generatedModule: manifest.output }));
}
