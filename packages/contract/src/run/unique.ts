// Names of what a run creates, unique per run: a server keeps labels (and domain names) unique,
// and a rerun against a server that still holds what an earlier run made, or a second create from
// the same example within one run, must not collide with them. Each name keeps the example's
// shape (so it stays within the schema's pattern and length) and carries a random run tag and a
// counter; a candidate is kept only when the whole body still validates.
import { randomBytes } from 'node:crypto';

/** Body fields whose values a server keeps unique. */
export const UNIQUE_FIELDS = ['label', 'domain'];

export interface Namer {
  /** the run's tag, a letter then six hex digits */
  tag: string;
  /** the body with each unique field given a fresh name, where one validates */
  rename: (body: unknown, valid: (candidate: Record<string, unknown>) => boolean, fields?: string[]) => unknown;
}

export function createNamer(tag = `k${randomBytes(3).toString('hex')}`): Namer {
  let counter = 0;
  const candidates = (value: string, suffix: string): string[] => {
    const out: string[] = [];
    // A domain name gets the tag as its first label: k1a2b3c1-example.com.
    if (/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(value)) out.push(`${suffix}-${value}`, `${suffix}.${value}`);
    for (const cut of [value.length, 20, 12, 6, 3, 1]) {
      const head = value.slice(0, cut).replace(/[^a-z0-9]+$/i, '');
      if (head) out.push(`${head}-${suffix}`, `${head}_${suffix}`, `${head}${suffix}`);
    }
    out.push(suffix);
    return [...new Set(out)];
  };
  return {
    tag,
    rename(body, valid, fields = UNIQUE_FIELDS) {
      if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
      let out = body as Record<string, unknown>;
      for (const field of fields) {
        const value = out[field];
        if (typeof value !== 'string' || !value) continue;
        const suffix = `${tag}${(++counter).toString(36)}`;
        const fresh = candidates(value, suffix).find((c) => valid({ ...out, [field]: c }));
        if (fresh !== undefined) out = { ...out, [field]: fresh };
      }
      return out;
    },
  };
}
