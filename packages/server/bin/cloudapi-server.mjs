#!/usr/bin/env node
// `cloudapi-server`: the reference server's command line (`npm run server` at the repository root).
// The implementation is TypeScript, built to dist/ by `npm run build`.
import '../dist/cli.js';
