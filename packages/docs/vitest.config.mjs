import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Quiet Vite's notes about the workflow parser's source maps (its sources are not published).
  logLevel: 'error',
  test: {
    isolate: false,
    // One Chromium for the browser tests of the run (test-support/chromium-setup.mjs).
    globalSetup: ['../../test-support/chromium-setup.mjs'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // GitHub's workflow parser imports its JSON schema without an import attribute, which Node
    // refuses; let Vite load it instead.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
  },
});
