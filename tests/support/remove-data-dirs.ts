import { afterAll } from 'vitest';
import { removeDataDirs } from './data-dirs.ts';

/**
 * A setup file of every tier: removes the data folders a test file made (freshDataDir) once the
 * file has run; each run of the suite used to leave about a hundred in the system's temp folder.
 * Registered before the file's own hooks, this runs after them (afterAll hooks run in reverse
 * order), when the file has stopped the servers that used them.
 */
afterAll(removeDataDirs);
