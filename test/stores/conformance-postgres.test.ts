import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresStore } from '../../src/runtime/postgres.js';
import { describeStoreConformance } from '../../src/testing/index.js';
import { describePostgres, dropSchema, freshSchema } from './pg-helpers.js';

describePostgres('postgres store', (url) => {
  const schema = freshSchema();
  afterAll(() => dropSchema(url, schema));
  describeStoreConformance('postgres', async () => postgresStore({ connectionString: url, schema }), { describe, it, expect, beforeEach, afterEach });
});
