import { existsSync } from 'node:fs';

/** The browser the browser tests drive: Debian's chromium (`.ci/run` installs it), or CTRLRUN_CHROMIUM. */
export const CHROMIUM = process.env.CTRLRUN_CHROMIUM ?? '/usr/bin/chromium';

const missing = `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does, or point CTRLRUN_CHROMIUM at a Chromium`;

/**
 * As the Postgres tests do (test/stores/pg-helpers.ts): without a browser the browser tests are
 * skipped with a printed notice, except in CI (`CI=true`), where they run and fail naming what to
 * install. A fresh clone's `npm test` then passes without a browser and says what it left out.
 */
export const SKIP_BROWSER = !existsSync(CHROMIUM) && process.env.CI !== 'true';
if (SKIP_BROWSER) console.warn(`skipped: the browser tests: ${missing}`);

/** The browser's path; throws (in CI) when it is missing. */
export function requireChromium(): string {
  if (!existsSync(CHROMIUM)) throw new Error(missing);
  return CHROMIUM;
}
