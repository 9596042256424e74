#!/usr/bin/env node
// `cloudapi`: the command line of the Cloud Account Management API (built to dist/ by `npm run build`).
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs (commander is most of a start's cost); Node 20 has no cache.
module.enableCompileCache?.();
const { main } = await import('../dist/main.js');
await main();
