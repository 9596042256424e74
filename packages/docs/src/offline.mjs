// What keeps the built page from loading anything: Redoc's inline bundle still points the
// "API docs by Redocly" attribution at logos on Redocly's CDN (fetched once the page hydrates),
// so the build swaps them for an inline SVG, and refuses a page that still names a CDN asset.
// The browser test (test/browser.test.mjs) is the real check: it blocks every request.

/** Addresses in Redoc's output that the page would fetch from a CDN. */
export const CDN_LOGOS = [
  'https://cdn.redoc.ly/redoc/logo-mini-full.svg',
  'https://cdn.redoc.ly/redoc/logo-mini.svg',
];

/** Addresses that mean the page was built without --inlineBundle or kept a CDN asset. */
const FORBIDDEN = /(?:https?:)?\/\/cdn\.redoc\.ly\/[^"'`\s)]*|https:\/\/cdn\.redocly\.com\/redoc\/[^"'`\s)]*/g;

export function svgDataUri(svg) {
  return `data:image/svg+xml,${encodeURIComponent(svg.trim())}`;
}

/** Replaces every CDN logo with `replacementUri`; returns the page and how many it replaced. */
export function inlineCdnAssets(html, replacementUri) {
  let replaced = 0;
  let out = html;
  for (const address of CDN_LOGOS) {
    const parts = out.split(address);
    replaced += parts.length - 1;
    out = parts.join(replacementUri);
  }
  return { html: out, replaced };
}

/** The CDN addresses a page still names (empty when it is self-contained). */
export function cdnReferences(html) {
  return html.match(FORBIDDEN) ?? [];
}
