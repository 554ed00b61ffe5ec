import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The SDK's strict-mode step: drops a `null` sent for a field that may be left out, before zod parses. */
export type StrictNullStep = (schema: unknown, value: unknown) => unknown;

/**
 * `stripStrictNullsForZodSchema`, the SDK's own strict-mode step, from the installed
 * `@openai/agents-core`: the reference the strict-null tests compare against. Neither
 * `@openai/agents-core` nor `@openai/agents` exports it by a public entry (`.`, `./utils`,
 * `./utils/internal` do not), so it is read by its path in the package, found from the package's
 * own folder; an SDK that moves it fails here, saying so, not with a bare import error.
 */
export async function loadSdkStrictNullStep(file = 'dist/utils/strictToolSchema.mjs'): Promise<StrictNullStep> {
  // the package's folder: above its resolved main entry (its exports do not list package.json)
  let dir = path.dirname(createRequire(import.meta.url).resolve('@openai/agents-core'));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
  const where = path.join(dir, file);
  const moved = `@openai/agents-core ${version} has no stripStrictNullsForZodSchema in ${file}, where the strict-null tests read the SDK's strict-mode step (it is in no public entry): find where this SDK keeps it and update test/helpers/sdk-strict-nulls.ts`;
  if (!existsSync(where)) throw new Error(moved);
  const step = ((await import(pathToFileURL(where).href)) as { stripStrictNullsForZodSchema?: unknown }).stripStrictNullsForZodSchema;
  if (typeof step !== 'function') throw new Error(moved);
  return step as StrictNullStep;
}
