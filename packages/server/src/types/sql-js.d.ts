// sql.js's browser build (no Node code in it) and its WebAssembly, which the engine's build
// (tsup.config.ts) inlines as bytes: the engine needs no file and no URL to load SQLite.
declare module 'sql.js/dist/sql-wasm-browser.js' {
  import type { SqlJsStatic } from '../core/store/sqljs.js';
  export default function initSqlJs(config?: { wasmBinary?: Uint8Array }): Promise<SqlJsStatic>;
}

declare module 'sql.js/dist/sql-wasm-browser.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
