/**
 * The mapped tools' parameter schemas of a project, read from its code as `generate` reads them
 * (the repo scanned from the manifest's root). The I/O shell around tool-schemas.ts, for the
 * commands that read no code otherwise (`diff`, `validate`).
 */
import type { Manifest } from '../manifest/types.js';
import { functionToolNames } from '../manifest/function-tools.js';
import { findToolDeclarations } from './declarations.js';
import { actionSchemas, type ActionSchemas } from './tool-schemas.js';

export function readActionSchemas(manifest: Manifest): ActionSchemas {
  return actionSchemas(manifest, findToolDeclarations(manifest.root, functionToolNames(manifest), { generatedModule: manifest.output }));
}
