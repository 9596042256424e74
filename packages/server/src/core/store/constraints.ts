// Which constraint refused a write, on either engine: PostgreSQL answers a SQLSTATE, better-sqlite3
// SQLite's extended result code. Areas turn these into the 400 of the rule the constraint keeps
// (a label taken, a bucket gone), since the database decides who wins a race.
const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** A unique constraint refused the write (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A foreign key refused the write (PostgreSQL 23503, SQLite SQLITE_CONSTRAINT_FOREIGNKEY). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
