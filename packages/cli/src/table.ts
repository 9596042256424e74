// The command table written by scripts/generate.mjs at build time (dist/commands.json): what every
// command parses, checks, sends and prints. Read once per run; the bundle itself is read only to
// validate a request.
import { readFileSync } from 'node:fs';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean';

export interface Positional { name: string; arg: string; description: string; schemaPointer: string; type: FieldType }
export interface QueryFlag { name: string; flag: string; description: string; required: boolean; schemaPointer: string; type: FieldType; array?: boolean; enum?: unknown[] }
export interface BodyField { path: string[]; flag: string; description: string; required: boolean; type: FieldType; nullable: boolean; array?: boolean; enum?: unknown[]; file?: boolean }
export interface RequestBody { mediaType: string; required: boolean; schemaPointer: string; fields: BodyField[] }

export interface CommandSpec {
  operationId: string;
  /** `['compute', 'instances', 'boot']` */
  words: string[];
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  summary: string;
  description: string;
  positionals: Positional[];
  query: QueryFlag[];
  body: RequestBody | null;
  /** A paginated list: `{data: [...], page, pages, results}`. */
  list: boolean;
  /** The answer's items are its `data` list (a page, or a list of another shape such as a bucket's objects). */
  items: boolean;
  /** The main fields of the resource (of each item, for a list). */
  columns: string[];
  /** Whether `--filter` (the X-Filter header) is offered. */
  filter: boolean;
  /** The fields of the items that X-Filter matches (`x-filterable` in the spec). */
  filterable: string[];
  /** The X-Filter header's schema in the bundle, when the operation declares one. */
  filterSchemaPointer?: string;
  /** The answer carries `upload_to`, a URL that takes the data with a PUT: `--upload-file` sends a file there. */
  upload?: boolean;
  example: string;
}

export interface CommandTable {
  version: string;
  baseUrl: string;
  /** Area name → description. */
  areas: Record<string, string>;
  /** The names of the fields the spec marks write-only in a request body (secrets such as root_pass). */
  writeOnly: string[];
  commands: CommandSpec[];
}

let cached: CommandTable | undefined;

/** dist/commands.json: the same path from src/ (tests) and from dist/ (the installed package). */
export function loadTable(): CommandTable {
  cached ??= JSON.parse(readFileSync(new URL('../dist/commands.json', import.meta.url), 'utf8')) as CommandTable;
  return cached;
}
