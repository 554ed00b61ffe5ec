import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/runtime/sqlite.js';
import { describeStoreConformance } from '../../src/testing/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ctrlrun-sqlite-conf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One file shared by every test (the suite never assumes an empty store), as processes share it.
describeStoreConformance('sqlite', async () => sqliteStore({ path: path.join(dir, 'state.db') }), { describe, it, expect, beforeEach, afterEach });
