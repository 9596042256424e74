// The `X-Filter` header of list calls: the typed `filter` option, written as JSON whose characters
// past ASCII are `\uXXXX` escapes (a header value carries bytes; raw UTF-8 would arrive as Latin-1).
export function filterHeader(filter: unknown): string {
  return JSON.stringify(filter).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
