// Types of the part of @cloudapi/spec's JavaScript helpers the command line uses (the package's
// own declarations are written only when it is packed).
declare module '@cloudapi/spec/schema-views' {
  import type Ajv from 'ajv/dist/2020.js';
  export function createAjv(options?: Record<string, unknown>): Ajv;
  export function viewDocument(document: unknown, view: 'request' | 'response', options?: { remove?: boolean }): unknown;
}
