// Redirects are never left to fetch (it re-sends a POST's body, and follows to any host). The
// client follows a redirect itself only for GET (it sends no HEAD), only to the same origin (where
// the token already goes), at most MAX_REDIRECTS times per call; any other redirect is returned,
// and becomes an ApiError naming its Location.

/** The most redirects one call follows. */
export const MAX_REDIRECTS = 5;

/** Where a redirect answering `request` may be followed to; undefined when it may not. */
export function followable(request: { method: string; url: string }, response: Response): URL | undefined {
  if (request.method !== 'GET' || !/^30[12378]$/.test(`${response.status}`)) return undefined;
  try {
    // (Without a Location, `new URL(null)` reads "null" as a relative URL: `location &&` refuses it.)
    const location = response.headers.get('location');
    const target = new URL(location!, request.url);
    if (location && target.origin === new URL(request.url).origin) return target;
  } catch {
    // not a URL: not followed
  }
  return undefined;
}
