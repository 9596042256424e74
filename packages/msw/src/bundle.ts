// The spec's bundle, inlined into this package's build (tsup bundles the JSON and the
// @cloudapi/spec helpers), so the handlers need no file system and run in a browser too.
import document from '@cloudapi/spec/openapi.json' with { type: 'json' };

export const bundle: any = document;
