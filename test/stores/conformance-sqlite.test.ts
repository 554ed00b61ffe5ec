import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { describeStoreConformance } from '../../src/testing/index.js';
import { describeEachSqliteDriver } from './sqlite-drivers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-sqlite-conf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One file per driver shared by every test (the suite never assumes an empty store), as processes share it.
describeEachSqliteDriver('sqlite store', (driver) => {
  describeStoreConformance(`sqlite (${driver})`, async () => sqliteStore({ path: path.join(dir, `state-${driver}.db`), driver }), {
    describe,
    it,
    expect,
    beforeEach,
    afterEach,
  });
});
