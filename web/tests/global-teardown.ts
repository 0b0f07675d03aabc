import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// globalTeardown stops the complyd it started (by its pid); the database is left for inspection.
export default async function globalTeardown() {
  try {
    process.kill(Number(readFileSync(resolve(import.meta.dirname, '..', 'artifacts', 'complyd.pid'), 'utf8')), 'SIGTERM');
  } catch { /* already gone */ }
}
