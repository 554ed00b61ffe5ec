/**
 * `ctrlrun-gen/runtime/postgres`: the Postgres store (`pg`, an optional peer dependency, imported
 * when the store first connects unless you pass your own pool).
 */
export { postgresStore, type PostgresStoreOptions, type PgPoolLike, type PgClientLike } from './stores/postgres.js';
