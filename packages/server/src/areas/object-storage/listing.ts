// The contents of a bucket as S3 lists them (a "version 1" listing): names in byte order after
// `marker`, only those starting with `prefix`, and with a `delimiter` the names that share
// everything up to the first delimiter after the prefix rolled up into one group (a "folder").
// Objects and groups both count towards `page_size`; `next_marker` is the last entry's name. The
// rows come from SQL in name order, a page at a time; a group costs one more query (the next one
// starts after everything it holds), never a scan of its members.
import type { components } from '@cloudapi/types';
import type { Db } from '../../core/store/db.js';

type Schemas = components['schemas'];
type Entry = Schemas['BucketObject'] | Schemas['BucketObjectPrefix'];

export interface ListRequest {
  bucketId: number;
  marker?: string;
  prefix?: string;
  delimiter?: string;
  size: number;
}

/**
 * The first string after every string that starts with `text`, in code-point order (which is
 * byte order in UTF-8): `text` with its last code point raised by one. Undefined when none is.
 */
export function after(text: string): string | undefined {
  const points = [...text];
  while (points.length) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) return points.join('') + String.fromCodePoint(last + 1 === 0xd800 ? 0xe000 : last + 1);
  }
  return undefined;
}

/** The group (`photos/`) a name falls in, or undefined when it is listed as itself. */
function groupOf(name: string, prefix: string, delimiter: string | undefined): string | undefined {
  if (!delimiter || !name.startsWith(prefix)) return undefined;
  const at = name.indexOf(delimiter, prefix.length);
  return at < 0 ? undefined : name.slice(0, at + delimiter.length);
}

const lastModified = (ms: number) => new Date(ms).toISOString();

export async function listObjects(db: Db, request: ListRequest): Promise<Schemas['BucketObjectList']> {
  const prefix = request.prefix ?? '';
  const delimiter = request.delimiter || undefined;
  const end = prefix ? after(prefix) : undefined;
  // Where the next query starts: after `from` (exclusive) or at it (inclusive).
  let from: { value: string; inclusive: boolean } | undefined = prefix ? { value: prefix, inclusive: true } : undefined;
  if (request.marker !== undefined && request.marker !== '') {
    // A marker inside a group (the group itself, as next_marker gives it) resumes after the group.
    const group = groupOf(request.marker, prefix, delimiter);
    const start = group !== undefined ? after(group) : undefined;
    const resume = start !== undefined ? { value: start, inclusive: true } : { value: request.marker, inclusive: false };
    if (!from || resume.value >= from.value) from = resume;
  }
  const wanted = request.size + 1; // one more than a page says whether the list is truncated
  const entries: Entry[] = [];
  let exhausted = false;
  while (entries.length < wanted && !exhausted) {
    let query = db.selectFrom('bucket_objects').select(['name', 'etag', 'last_modified', 'owner', 'size'])
      .where('bucket_id', '=', request.bucketId).orderBy('name').limit(wanted - entries.length);
    if (from) query = query.where('name', from.inclusive ? '>=' : '>', from.value);
    if (end !== undefined) query = query.where('name', '<', end);
    const rows = await query.execute();
    if (rows.length < wanted - entries.length) exhausted = true;
    let restart = false;
    for (const row of rows) {
      const group = groupOf(row.name, prefix, delimiter);
      if (group !== undefined) {
        entries.push({ name: group });
        const next = after(group);
        if (next === undefined) { exhausted = true; break; }
        from = { value: next, inclusive: true };
        exhausted = false;
        restart = true;
        break;
      }
      entries.push({ name: row.name, etag: row.etag, last_modified: lastModified(Number(row.last_modified)), owner: `user-${row.owner}`, size: Number(row.size) });
      from = { value: row.name, inclusive: false };
      if (entries.length >= wanted) break;
    }
    if (!restart && rows.length === 0) exhausted = true;
  }
  const truncated = entries.length > request.size;
  const data = entries.slice(0, request.size);
  return { data, is_truncated: truncated, next_marker: truncated ? data[data.length - 1]!.name : null };
}
