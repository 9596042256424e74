// Tokens never reach the kit's output. A target may echo what it was sent (an `Authorization`
// header quoted in an error, a body that repeats the request), and the kit quotes answers into its
// checks' reasons; so the whole result is redacted once, where the run ends (summary.ts), and
// every report and printed line is made from that redacted result.
import type { TokenEntry } from '../model/tokens.js';

/** Replaces secrets in text by their names: `{token: '$TOKEN'}`. */
export type Redact = (text: string) => string;

/** An excerpt's mark where it cut text short (checks.ts `excerpt`, a curl line's long body). */
const CUT = '…';
/** A token cut short by an excerpt is redacted when at least this much of it is left. */
const MIN_CUT = 4;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The forms a token takes in an answer: as sent, inside a JSON string, percent-encoded. */
function formsOf(token: string): string[] {
  return [...new Set([token, JSON.stringify(token).slice(1, -1), encodeURIComponent(token)])];
}

/** A regular expression for a token's beginning, at least MIN_CUT characters of it, right before an excerpt's cut. */
function cutPattern(token: string): string {
  const rest = [...token.slice(MIN_CUT, -1)].reduceRight((inner, char) => `(?:${escapeRegExp(char)}${inner})?`, '');
  return `${escapeRegExp(token.slice(0, MIN_CUT))}${rest}(?=${CUT})`;
}

/**
 * The names tokens get in the output: the main token `$TOKEN`, the others of a tokens file
 * `$TOKEN_1`, `$TOKEN_2`… in file order.
 */
export function tokenNames(mainToken: string | undefined, tokens: TokenEntry[]): Array<[string, string]> {
  return [
    ...(mainToken ? [[mainToken, '$TOKEN'] as [string, string]] : []),
    ...tokens.filter((t) => t.token !== mainToken).map((t, i) => [t.token, `$TOKEN_${i + 1}`] as [string, string]),
  ];
}

/** One pass over a text replacing every form of every token (and one cut short) by its name. */
export function tokenRedactor(named: Array<[string, string]>): Redact {
  const secrets = named.filter(([token]) => token.length > 0);
  if (!secrets.length) return (text) => text;
  const nameOf = new Map<string, string>();
  const patterns: string[] = [];
  // Longer forms first, so a token that contains another is replaced whole.
  const forms = secrets.flatMap(([token, name]) => formsOf(token).map((form) => [form, name] as const)).sort((a, b) => b[0].length - a[0].length);
  for (const [form, name] of forms) {
    if (nameOf.has(form)) continue;
    nameOf.set(form, name);
    patterns.push(escapeRegExp(form));
  }
  const cuts = secrets.filter(([token]) => token.length > MIN_CUT);
  const pattern = new RegExp([...patterns, ...cuts.map(([token]) => `(${cutPattern(token)})`)].join('|'), 'g');
  return (text) => text.replace(pattern, (match, ...groups) => {
    const cut = groups.slice(0, cuts.length).findIndex((group) => group !== undefined);
    return cut >= 0 ? cuts[cut]![1] : nameOf.get(match) ?? match;
  });
}

/** A copy of a value (a run's result) with every string in it redacted; keys are the kit's own names. */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item, redact)])) as T;
  }
  return value;
}
