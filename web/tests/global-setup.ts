import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';

// globalSetup builds complyd, creates a database on the test PostgreSQL (PGHOST/PGPORT, default
// 127.0.0.1:5432, user postgres), creates a tenant with the CLI, starts `complyd serve`, and seeds
// users and a case through the API. The fixture is written to artifacts/fixture.json.
const root = resolve(import.meta.dirname, '..', '..');
const art = resolve(import.meta.dirname, '..', 'artifacts');
export const port = 18089;
export const base = `http://127.0.0.1:${port}`;
export const password = 'correct-horse-battery';

async function rest(path: string, token: string, body?: unknown) {
  const res = await fetch(base + '/api/v1' + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: 'Bearer ' + token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!json.success) throw new Error(`${path}: ${JSON.stringify(json.error)}`);
  return json.data;
}

export default async function globalSetup() {
  mkdirSync(art, { recursive: true });
  const bin = join(art, 'complyd');
  execFileSync('go', ['build', '-o', bin, './cmd/complyd'], { cwd: root, stdio: 'inherit' });
  const db = `complyd_web_${Date.now()}`;
  const pg = { PGHOST: process.env.PGHOST ?? '127.0.0.1', PGPORT: process.env.PGPORT ?? '5432', PGUSER: process.env.PGUSER ?? 'postgres' };
  execFileSync('psql', ['-v', 'ON_ERROR_STOP=1', '-d', 'postgres', '-c', `create database ${db}`], { env: { ...process.env, ...pg } });
  const env = {
    ...process.env,
    DATABASE_URL: `postgres://${pg.PGUSER}@${pg.PGHOST}:${pg.PGPORT}/${db}?sslmode=disable`,
    COMPLYD_ADDR: `127.0.0.1:${port}`,
    COMPLYD_JWT_SECRET: 'web-test-secret-web-test-secret-0123456789',
    COMPLYD_BLOB_DIR: join(art, 'blobs'),
    COMPLYD_COOKIE_SECURE: 'false',
    COMPLYD_RATE_LIMIT_API: '0',
  };
  execFileSync(bin, ['migrate'], { env, stdio: 'ignore' });
  const admin = 'admin@web.test';
  execFileSync(bin, ['tenant', 'create', '--name', 'Web Test Bank', '--slug', 'webtest', '--admin-email', admin, '--admin-password', password,
    '--admin-first-name', 'Ada', '--admin-last-name', 'Admin'], { env, stdio: 'inherit' });
  const log = openSync(join(art, 'complyd.log'), 'w');
  const proc = spawn(bin, ['serve'], { env, stdio: ['ignore', log, log], detached: false });
  writeFileSync(join(art, 'complyd.pid'), String(proc.pid));
  for (let i = 0; ; i++) {
    try { if ((await fetch(base + '/health')).ok) break; } catch { /* not up yet */ }
    if (i > 100) throw new Error('complyd did not start; see artifacts/complyd.log');
    await new Promise((r) => setTimeout(r, 200));
  }
  const adminTok = (await rest('/auth/login', '', { email: admin, password })).accessToken;
  const users: Record<string, string> = {};
  for (const [key, role, first] of [['officer1', 'COMPLIANCE_OFFICER', 'Olu'], ['officer2', 'COMPLIANCE_OFFICER', 'Tomi'], ['auditor', 'AUDITOR', 'Vic']]) {
    const email = `${key}@web.test`;
    await rest('/auth/users', adminTok, { email, password, firstName: first, lastName: key, role });
    users[key] = email;
  }
  const kase = await rest('/cases', adminTok, { type: 'AML_ALERT', priority: 'HIGH', title: 'Structuring below threshold',
    description: 'Ten cash deposits under the reporting threshold in one day', tags: ['structuring'] });
  writeFileSync(join(art, 'fixture.json'), JSON.stringify({ admin, users, caseId: kase.id, caseNumber: kase.caseNumber, db }, null, 2));
}
