// Holds a write lock on a SQLite database until its stdin closes: `node hold-sqlite-lock.mjs FILE`.
import Database from 'better-sqlite3';

const db = new Database(process.argv[2]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
process.stdin.resume();
process.stdin.on('end', () => {
  db.exec('ROLLBACK');
  db.close();
  process.exit(0);
});
