// better-sqlite3 13 under its alias (the driver for Node 22 and later: see core/store/sqlite.ts).
declare module 'better-sqlite3-napi' {
  import Database from 'better-sqlite3';
  export default Database;
}
