// Time. States the real service reaches later (a volume `creating` → `active`) advance on a clock:
// a row keeps its state, the next one and when it moves (`status`, `next_status`,
// `transition_at`), and every read settles it against the current time. Nothing runs in the
// background, so the state survives a restart and two processes on one PostgreSQL agree (they
// share the wall clock). `TRANSITION_MS` says how long such a state lasts (0: at once).
import { sql } from 'kysely';
import type { Expression, SqlBool } from 'kysely';

export interface Clock {
  /** Epoch milliseconds. Tests may move it. */
  now(): number;
  /** How long a transitional state lasts, in milliseconds. */
  transitionMs: number;
}

export function systemClock(transitionMs: number): Clock {
  return { now: () => Date.now(), transitionMs };
}

/** `2018-01-01T00:01:01`: ISO 8601 in UTC without zone designator, as the API writes times. */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

export interface StateColumns<S extends string = string> {
  status: S;
  next_status: S | null;
  transition_at: number | null;
}

/** The state a row is in at `now`. */
export function settle<S extends string>(row: StateColumns<S>, now: number): S {
  return row.transition_at !== null && row.next_status !== null && row.transition_at <= now ? row.next_status : row.status;
}

/** Columns that put a row in `from` now and move it to `to` after the clock's transition time. */
export function transition<S extends string>(clock: Clock, from: S, to: S): StateColumns<S> {
  return { status: from, next_status: to, transition_at: clock.now() + clock.transitionMs };
}

/** Columns of a state that stays. */
export function steady<S extends string>(status: S): StateColumns<S> {
  return { status, next_status: null, transition_at: null };
}

/**
 * A SQL condition "the row is in `status` at `now`", for conditional updates that must not race:
 * `UPDATE … WHERE id = ? AND <inState>` changes nothing when another request got there first.
 */
export function inState(status: string, now: number): Expression<SqlBool> {
  return sql<SqlBool>`(case when transition_at is not null and next_status is not null and transition_at <= ${now} then next_status else status end) = ${status}`;
}
