/**
 * The mapped tools' parameter schemas of a project, read from its code as `generate` reads them.
 * The I/O shell around tool-schemas.ts: from the repo scanned at the manifest's root (`diff`,
 * `validate`), or from files another command has scanned already (`check`, `init`).
 */
import path from 'node:path';
import type { Manifest } from '../manifest/types.js';
import type { FileScan } from '../scan/types.js';
import { manifestDeclarations, manifestDeclarationsInScans } from './declarations.js';
import { actionSchemas, type ActionSchemas } from './tool-schemas.js';

export function readActionSchemas(manifest: Manifest): ActionSchemas {
  return actionSchemas(manifest, manifestDeclarations(manifest));
}

/**
 * The schemas from files already scanned (paths relative to `root`, the scan's root, which may
 * hold several packages): only those under the manifest's root count, as when `generate` scans
 * that root itself (another package's tool of the same name is not this one's).
 */
export function schemasInScans(manifest: Manifest, root: string, scans: readonly FileScan[], text: (scan: FileScan) => string | undefined): ActionSchemas {
  const inPackage = scans.filter((s) => {
    const rel = path.relative(manifest.root, path.resolve(root, s.file));
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  });
  return actionSchemas(manifest, manifestDeclarationsInScans(manifest, root, inPackage, text));
}
