// One command's arguments and flags to the request it sends: path parameters from the positional
// arguments, query parameters and body fields from the flags (over a `--data` body), each checked
// against the bundle's schemas before anything is sent.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './errors.js';
import type { Io } from './io.js';
import type { CommandSpec } from './table.js';
import { check, type Problem } from './validate.js';
import { convert, setPath } from './values.js';

export interface PlannedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  /** The X-Filter's JSON, parsed: @cloudapi/client encodes it into the header as the spec says. */
  filter?: object;
}

/** What the command line gave: positional values, and flag values keyed by flag name. */
export interface Given {
  positionals: string[];
  flags: Map<string, unknown>;
  data?: string;
  filter?: string;
}

/** `--data @file.json`, `--data -` (standard input) or `--data '{"label":"x"}'`. */
async function readData(source: string, io: Io): Promise<unknown> {
  let text = source;
  let where = '--data';
  if (source === '-') { text = await io.readStdin(); where = '--data - (standard input)'; }
  else if (source.startsWith('@')) {
    where = `--data ${source}`;
    try { text = readFileSync(source.slice(1), 'utf8'); } catch (error) { throw new UsageError([`${where}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]); }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError([`${where}: not valid JSON (${(error as Error).message})`]);
  }
}

type Report = (name: (problem: Problem) => string) => (list: Problem[]) => void;

/** Path parameters from the positional arguments, in the order of the path. */
function planPath(spec: CommandSpec, given: Given, report: Report): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  spec.positionals.forEach((p, i) => {
    values[p.name] = convert(given.positionals[i] ?? '', p.type);
    report(() => `<${p.arg}>`)(check(p.schemaPointer, values[p.name]));
  });
  return values;
}

/** Query parameters from their flags; a required one missing is named. */
function planQuery(spec: CommandSpec, given: Given, report: Report, problems: string[]): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const q of spec.query) {
    const raw = given.flags.get(q.flag);
    if (raw === undefined) {
      if (q.required) problems.push(`--${q.flag}: is required`);
      continue;
    }
    query[q.name] = Array.isArray(raw) ? raw.map((item) => convert(item, q.type)) : convert(String(raw), q.type);
    report(() => `--${q.flag}`)(check(q.schemaPointer, query[q.name]));
  }
  return query;
}

/** The body: `--data`, then the fields given as flags set over it; checked when it is JSON. */
async function planBody(spec: CommandSpec, given: Given, io: Io, report: Report, problems: string[]): Promise<unknown> {
  if (!spec.body) return undefined;
  const fromData = given.data !== undefined;
  let body = fromData ? await readData(given.data!, io) : undefined;
  const fieldsGiven = spec.body.fields.filter((field) => given.flags.get(field.flag) !== undefined);
  if (fieldsGiven.length) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw new UsageError(['--data: must be a JSON object when flags add fields to it']);
    body ??= {};
    for (const field of fieldsGiven) {
      const raw = given.flags.get(field.flag);
      const value = field.file ? readFile(String(raw), field.flag)
        : field.type === 'boolean' && !field.array ? raw
          : Array.isArray(raw) ? raw.map((item) => convert(item, field.type)) : convert(String(raw), field.type, field.nullable);
      setPath(body as Record<string, unknown>, field.path, value);
    }
  }
  if (body === undefined && spec.body.required) body = {};
  if (body === undefined) return body;
  if (spec.body.mediaType === 'application/json') {
    // Name a field by its flag, unless the body came from --data (the JSON's own path then).
    const flagOf = new Map(spec.body.fields.map((field) => [field.path.join('.'), `--${field.flag}`]));
    report((p) => (!fromData && flagOf.get(p.path.join('.'))) || p.path.join('.') || 'the body')(check(spec.body.schemaPointer, body));
  } else {
    // Multipart: its parts are files and text; only their presence is checked here.
    for (const field of spec.body.fields) if (field.required && (body as Record<string, unknown>)[field.path[0]!] === undefined) problems.push(`--${field.flag}: is required`);
  }
  return body;
}

/**
 * The X-Filter: a JSON object, checked against the header's schema where the spec gives one. It
 * goes to the client's `filter` option, which encodes it with the spec's encoder (the text as
 * given could not go in a header: fetch refuses a character past U+00FF).
 */
function planFilter(spec: CommandSpec, given: Given, report: Report, problems: string[]): object | undefined {
  if (given.filter === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(given.filter);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('a JSON object is expected');
  } catch (error) {
    problems.push(`--filter: must be a JSON object such as '{"region": "us-east"}' (${(error as Error).message})`);
    return undefined;
  }
  if (spec.filterSchemaPointer) report((p) => (p.path.length ? `--filter ${p.path.join('.')}` : '--filter'))(check(spec.filterSchemaPointer, parsed));
  return parsed as object;
}

/** The request of one command, or a UsageError listing every problem found. */
export async function planRequest(spec: CommandSpec, given: Given, io: Io): Promise<PlannedRequest> {
  const problems: string[] = [];
  const report: Report = (name) => (list) => { for (const p of list) problems.push(`${name(p)}: ${p.reason}`); };
  const pathValues = planPath(spec, given, report);
  const query = planQuery(spec, given, report, problems);
  const body = await planBody(spec, given, io, report, problems);
  const filter = planFilter(spec, given, report, problems);
  if (problems.length) throw new UsageError(problems, spec.words.join(' '));
  return { path: pathValues, query, body, ...(filter ? { filter } : {}) };
}

/** A file field (multipart): the file's bytes under its own name. */
function readFile(file: string, flag: string): File {
  const name = file.startsWith('@') ? file.slice(1) : file;
  try {
    return new File([readFileSync(name)], path.basename(name));
  } catch (error) {
    throw new UsageError([`--${flag}: cannot read ${name} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`]);
  }
}
