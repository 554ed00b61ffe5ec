// Holds a write lock on a SQLite database until its stdin closes: `node hold-sqlite-lock.mjs FILE [SQL [MS]]`.
// With SQL: runs it inside the lock and commits it when stdin closes, or MS ms after saying
// "locked" (the drivers are synchronous: a store waiting on the lock blocks its whole process, so
// the commit must come from here); without: rolls back. Uses whichever SQLite library this Node loads.
import { createRequire } from 'node:module';

const [file, sql, ms] = process.argv.slice(2);
const db = await openDatabase(file);
db.exec('BEGIN IMMEDIATE');
if (sql) db.exec(sql);
process.stdout.write('locked\n');
const end = () => {
  db.exec(sql ? 'COMMIT' : 'ROLLBACK');
  db.close();
  process.exit(0);
};
process.stdin.resume();
process.stdin.on('end', end);
if (ms) setTimeout(end, Number(ms));

async function openDatabase(path) {
  try {
    const { DatabaseSync } = await import('node:sqlite');
    return new DatabaseSync(path);
  } catch {
    const Database = createRequire(import.meta.url)('better-sqlite3');
    return new Database(path);
  }
}
