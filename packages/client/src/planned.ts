// What openapi-fetch builds instead of a Request when no middleware needs a real one (its
// `Request` option): the URL and the fetch options, sent as they are with `fetch(url, options)`.
// A Request costs an AbortController and a copy of the headers, and Node's fetch makes a second
// Request from it, whose signal follows the first one's: together ~20 µs per call. The body (JSON
// text, FormData, bytes) can be sent again as it is, so a retry needs no clone of a stream.
export class Planned {
  declare url: string;
  declare method: string;

  constructor(url: string | URL, init: RequestInit) {
    Object.assign(this, init);
    this.url = `${url}`;
  }
}
