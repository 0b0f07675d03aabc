import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// globalTeardown stops the complyd it started (by its pid) and drops the database it created
// (KEEP_DB=1 keeps it for inspection).
export default async function globalTeardown() {
  const art = resolve(import.meta.dirname, '..', 'artifacts');
  try {
    process.kill(Number(readFileSync(resolve(art, 'complyd.pid'), 'utf8')), 'SIGTERM');
  } catch { /* already gone */ }
  if (process.env.KEEP_DB) return;
  try {
    const { db } = JSON.parse(readFileSync(resolve(art, 'fixture.json'), 'utf8'));
    await new Promise((r) => setTimeout(r, 500));
    execFileSync('psql', ['-d', 'postgres', '-c', `drop database if exists ${db} with (force)`], {
      env: { ...process.env, PGHOST: process.env.PGHOST ?? '127.0.0.1', PGPORT: process.env.PGPORT ?? '5432', PGUSER: process.env.PGUSER ?? 'postgres' }, stdio: 'ignore' });
  } catch { /* nothing to drop */ }
}
