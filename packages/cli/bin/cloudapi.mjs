#!/usr/bin/env node
// `cloudapi`: the command line of the Cloud Account Management API (built to dist/ by `npm run build`).
import { main } from '../dist/main.js';

await main();
