// Reads on PostgreSQL outside any transaction, as cheap as the protocol allows (measured on the
// 2-core machine of the benchmark, a point read with its tags, 10 at once):
//   - named statements: PostgreSQL parses and plans a text once per connection instead of on every
//     read (its CPU per read: about 140 µs unnamed, 50 µs named);
//   - pipelined connections (pg's `pipeline`): several reads on the wire at once on a few
//     connections, their writes held until the event loop's next turn so that one socket write
//     and one read carry several of them (CPU per read, server and PostgreSQL alike: about 50 µs
//     one read per pooled connection, 28 µs pipelined, 10 at once).
// Reads that can take long (a list's count and page) run on the pool instead, so that a point read
// never waits behind a scan. Transactions run on the pool through Kysely, as before.
import { createHash } from 'node:crypto';
import type { Client, Pool, QueryConfig, QueryResult } from 'pg';
import type { ImmediateResult, PostgresRunner } from './immediate.js';

/** Runs compiled SQL outside any transaction; `long`: a read that may take long (the pool's). */
export type { PostgresRunner } from './immediate.js';

/**
 * Distinct SQL texts run as named statements, per store. Each connection prepares a text the
 * first time it runs it and keeps it while it lives, so the number is bounded: texts past it (a
 * flood of distinct X-Filter shapes) run unnamed, as before; so do statements of more than
 * MAX_NAMED_PARAMETERS values (a list of ids), whose plans would be large and seldom used again.
 */
export const MAX_NAMED_STATEMENTS = 256;
export const MAX_NAMED_PARAMETERS = 64;

/** Connections in pipeline mode per store (each process opens them beside its pool). */
export const PIPELINED_CONNECTIONS = 2;

/** A PostgreSQL error: a cached plan whose result columns changed (another process migrated the table). */
const PLAN_CHANGED = '0A000';

interface Queryable {
  query(config: QueryConfig): Promise<QueryResult>;
}

function statementNames() {
  const names = new Map<string, string | null>();
  return (sql: string): string | null => {
    let name = names.get(sql);
    if (name === undefined) {
      name = names.size < MAX_NAMED_STATEMENTS ? `cloudapi_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}` : null;
      names.set(sql, name);
    }
    return name;
  };
}

/**
 * Holds the connection's socket until the event loop's next turn, so that the reads asked for in
 * this one leave in one write and PostgreSQL takes them in one read (pg writes each query at once).
 */
function hold(slot: { held: boolean }, client: Client): void {
  const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  if (slot.held || !stream?.cork || !stream.uncork) return;
  slot.held = true;
  stream.cork();
  setImmediate(() => {
    slot.held = false;
    stream.uncork!();
  });
}

/**
 * `count` connections in pipeline mode, each opened on first use and again after it is lost; a
 * read goes to the one with the fewest reads on the wire.
 */
export function pipelinedConnections(open: () => Client, count: number): Queryable & { close(): Promise<void> } {
  const slots = Array.from({ length: count }, () => ({ client: null as Promise<Client> | null, reads: 0, held: false }));
  const connect = (slot: (typeof slots)[number]): Promise<Client> => {
    const client = open();
    const ready: Promise<Client> = client.connect().then(() => client);
    const forget = () => {
      if (slot.client === ready) slot.client = null;
    };
    // A lost connection fails the reads on it (as on the pool); the next read opens another.
    client.on('error', forget);
    client.on('end', forget);
    ready.catch(forget);
    return (slot.client = ready);
  };
  return {
    async query(config) {
      const slot = slots.reduce((best, s) => (s.reads < best.reads ? s : best));
      slot.reads++;
      try {
        const client = await (slot.client ?? connect(slot));
        hold(slot, client);
        return await client.query(config);
      } finally {
        slot.reads--;
      }
    },
    async close() {
      await Promise.all(slots.map(async (slot) => {
        const client = await slot.client?.catch(() => null);
        slot.client = null;
        await client?.end().catch(() => {});
      }));
    },
  };
}

/** The runner: named statements where there is room, unnamed once a text's plan went stale. */
export function postgresReads(pipelined: Queryable, pool: Pool): PostgresRunner {
  const nameOf = statementNames();
  const stale = new Set<string>();
  return async (sql, parameters, long = false) => {
    const target: Queryable = long ? pool : pipelined;
    const name = parameters.length > MAX_NAMED_PARAMETERS || stale.has(sql) ? null : nameOf(sql);
    const values = parameters as unknown[];
    try {
      return { rows: (await target.query(name ? { name, text: sql, values } : { text: sql, values })).rows };
    } catch (error) {
      if (!name || (error as { code?: string }).code !== PLAN_CHANGED) throw error;
      // Connections keep the statement prepared: this text runs unnamed from now on.
      stale.add(sql);
      return { rows: (await target.query({ text: sql, values })).rows };
    }
  };
}
