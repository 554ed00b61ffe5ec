/** A query as `pg` takes it; `name` makes it a prepared statement, parsed once per connection. */
export interface PgQueryConfig {
  name?: string;
  text: string;
  values?: unknown[];
}

/** The part of a `pg` client this store uses (structural, so `pg` stays an optional peer). */
export interface PgClientLike {
  query(text: string | PgQueryConfig, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  release(error?: Error | boolean): void;
  /** `pg` clients are event emitters; a pool of another shape may leave these out. */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  off?(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a `pg.Pool` this store uses. */
export interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  query(text: string | PgQueryConfig, values?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>;
  end(): Promise<void>;
}

export type PostgresStoreOptions = (
  | { connectionString: string; pool?: undefined /** Pool size when the store makes the pool. Default 10. */; max?: number }
  | { pool: PgPoolLike; connectionString?: undefined }
) & {
  /** The schema holding the store's tables; created when missing. Default `ctrlrun`. */
  schema?: string;
};
