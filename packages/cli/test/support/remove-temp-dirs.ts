// Vitest setup file: the temporary folders a test file made with tempDir() go when it ends, so that
// a run leaves nothing in the system's temporary folder.
import { afterAll } from 'vitest';
import { removeTempDirs } from './cli.js';

afterAll(removeTempDirs);
