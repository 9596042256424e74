// The X-Filter checks of a list whose items have filterable fields (the bundle's x-filterable
// marks, read through @cloudapi/spec/filters): an object this run created is found by equality and
// by +contains on one of its values, and only matching items come back, counted after filtering;
// +order_by/+order hold across every page; a field that is not filterable is refused with a 400
// naming X-Filter. Run against implementations only (the mock keeps no state).
import { compareItems, encodeFilterHeader, fieldValue, matchesFilter, parseFilter } from '@cloudapi/spec/filters';
import type { FilterSpec } from '@cloudapi/spec/filters';
import { excerpt } from './answers.js';
import { type Check, fail, pass, skip } from './outcome.js';
import type { Answer } from '../transport/http.js';

export interface WalkedList { items: { item: unknown; page: number }[]; total?: number; pages: number; complete: boolean }
/** Walks every page of the list with this X-Filter header text at the smallest page size. */
export type FilteredWalk = (header: string, label: string) => Promise<WalkedList | undefined>;
/** Asks for the first page with this X-Filter header text. */
export type FilteredProbe = (header: string, label: string, checks: (answer: Answer) => Check[]) => Promise<void>;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The field of `item` to filter on and its value: text or a tag first (with a part of it for
 * +contains), else any other non-null value (equality only; `part` null).
 */
export function probeOf(spec: FilterSpec, item: unknown): { field: string; value: unknown; part: string | null } | null {
  let other: { field: string; value: unknown; part: null } | null = null;
  for (const [field, kind] of Object.entries(spec.fields)) {
    const actual = fieldValue(item, field);
    const value = kind.kind === 'tags' ? (Array.isArray(actual) ? actual.find((t) => typeof t === 'string' && t.length) : undefined) : actual;
    if ((kind.kind === 'text' || kind.kind === 'tags') && typeof value === 'string' && value.length) {
      // The middle of the value: a +contains that only matched prefixes or whole values misses it.
      const part = value.length > 2 ? value.slice(1, -1) : value;
      return { field, value, part };
    }
    if (other === null && kind.kind !== 'tags' && value !== null && value !== undefined) other = { field, value, part: null };
  }
  return other;
}

function foundOnly(name: string, spec: FilterSpec, filter: object, walked: WalkedList | undefined, isTarget: (item: unknown) => boolean): Check {
  if (!walked) return fail(name, `the list with X-Filter ${JSON.stringify(filter)} could not be walked (see its pages above)`);
  const { where } = parseFilter(JSON.stringify(filter), spec);
  const wrong = walked.items.filter((x) => !matchesFilter(x.item, where, spec));
  const problems: string[] = [];
  if (!walked.items.some((x) => isTarget(x.item))) problems.push(`the object this run created is missing (${walked.items.length} items on ${walked.pages} page(s))`);
  if (wrong.length) problems.push(`${wrong.length} item(s) do not match, first on page ${wrong[0]!.page}: ${excerpt(JSON.stringify(wrong[0]!.item), 120)}`);
  if (walked.complete && walked.total !== undefined && walked.total !== walked.items.length) problems.push(`results says ${walked.total}, but the pages held ${walked.items.length} matching items (counted before filtering?)`);
  return problems.length ? fail(name, `X-Filter ${JSON.stringify(filter)}: ${problems.join('; ')}`) : pass(name, `${walked.items.length} item(s) on ${walked.pages} page(s)`);
}

/** The order by this field is the one the list answers, in the direction asked, across its pages. */
function orderHolds(name: string, filter: Record<string, string>, walked: WalkedList | undefined, everyItem: number): Check {
  if (!walked) return fail(name, `the list with X-Filter ${JSON.stringify(filter)} could not be walked (see its pages above)`);
  const items = walked.items.map((x) => x.item);
  if (items.length < 2) return skip(name, `fewer than two items to order (${items.length})`);
  const compare = compareItems(filter['+order_by']!, filter['+order'] as 'asc' | 'desc');
  const at = items.findIndex((item, i) => i > 0 && compare(items[i - 1], item) > 0);
  if (at > 0) {
    const where = (i: number) => `${JSON.stringify(fieldValue(items[i], filter['+order_by']!))} (id ${JSON.stringify(fieldValue(items[i], 'id'))}, page ${walked.items[i]!.page})`;
    return fail(name, `X-Filter ${JSON.stringify(filter)}: ${where(at - 1)} comes before ${where(at)}`);
  }
  if (walked.complete && items.length !== everyItem) return fail(name, `X-Filter ${JSON.stringify(filter)} answered ${items.length} items, but the list holds ${everyItem}`);
  return pass(name, `${items.length} items on ${walked.pages} page(s)`);
}

/** A property of the items that is not filterable, to be refused. */
function unfilterable(spec: FilterSpec, item: unknown): string | undefined {
  return isObject(item) ? Object.keys(item).find((key) => !(key in spec.fields)) : undefined;
}

export async function filterChecks(input: {
  spec: FilterSpec;
  /** The list's items, every page, unfiltered. */
  all: WalkedList;
  /** Whether an item is one this run created. */
  isOwn: (item: unknown) => boolean;
  walk: FilteredWalk;
  probe: FilteredProbe;
}): Promise<Check[]> {
  const { spec, all, isOwn, walk, probe } = input;
  const checks: Check[] = [];
  const own = all.items.find((x) => isOwn(x.item))?.item;
  const chosen = own === undefined ? null : probeOf(spec, own);
  if (!chosen) {
    checks.push(skip('X-Filter finds by equality', own === undefined ? 'no object this run created is in the list' : 'the object this run created holds no filterable value'));
  } else {
    const equal = { [chosen.field]: chosen.value };
    checks.push(foundOnly('X-Filter finds by equality', spec, equal, await walk(encodeFilterHeader(equal), `X-Filter ${JSON.stringify(equal)}`), isOwn));
    if (chosen.part === null) {
      checks.push(skip('X-Filter finds by +contains', `no text or tag field holds a value on the object this run created (filtered by ${chosen.field})`));
    } else {
      const contains = { [chosen.field]: { '+contains': chosen.part } };
      checks.push(foundOnly('X-Filter finds by +contains', spec, contains, await walk(encodeFilterHeader(contains), `X-Filter ${JSON.stringify(contains)}`), isOwn));
    }
  }
  // Ordered against the list's default (ascending ids): descending, by a field items differ in.
  const by = ['created', 'id', ...spec.orderable].find((f) => spec.orderable.includes(f))!;
  const order = { '+order_by': by, '+order': 'desc' };
  checks.push(orderHolds('X-Filter order holds across pages', order, await walk(encodeFilterHeader(order), `X-Filter ${JSON.stringify(order)}`), all.items.length));
  const field = unfilterable(spec, own ?? all.items[0]?.item);
  if (field) {
    const refused = { [field]: fieldValue(own ?? all.items[0]?.item, field) };
    await probe(encodeFilterHeader(refused), `X-Filter on ${field}, which is not filterable`, (answer) => {
      const errors = isObject(answer.json) && Array.isArray(answer.json.errors) ? answer.json.errors : [];
      const named = errors.some((e) => isObject(e) && (e.field === 'X-Filter' || String(e.reason ?? '').includes('X-Filter')));
      const name = 'X-Filter refuses a field that is not filterable';
      if (answer.status !== 400) return [fail(name, `answered ${answer.status} to X-Filter ${JSON.stringify(refused)}; expected 400`)];
      return [named ? pass(name) : fail(name, `the 400 names neither field nor reason X-Filter: ${excerpt(JSON.stringify(errors))}`)];
    });
  }
  return checks;
}
