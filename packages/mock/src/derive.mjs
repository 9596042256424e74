// Prism routes on the `paths` keys as written and ignores the base path of the server URL, so a
// spec whose paths are relative to `https://…/v4` would be served at `/regions`. The mock serves
// a copy of the bundle whose path keys carry the server's base path (`/v4/regions`), derived on
// every build: there is no second spec to maintain.
import { basePathOf } from '@cloudapi/spec/bundle';

// Kept in this module's exports (`@cloudapi/mock/derive`): installed consumers import it here.
export { basePathOf };

/** @param {any} document the bundle */
export function deriveMockDocument(document) {
  const base = basePathOf(document);
  const paths = Object.fromEntries(Object.entries(document.paths || {}).map(([path, item]) => [`${base}${path}`, item]));
  return {
    ...document,
    servers: [{ url: '/', description: `Prism mock; paths include the ${base || '/'} base path of the API` }],
    paths,
  };
}
