/** The file to `require()` for better-sqlite3 12, the SQLite driver of @cloudapi/server on Node 20. */
export declare const driverPath: string;
