import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { totp } from './totp';

// png is a 16x16 solid PNG: the upload sniffs content, so the document must be a real image.
const png = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGPQyt9AEmIY1TCqYfhqAABiiUkQSo+fDgAAAABJRU5ErkJggg==';

// globalSetup builds complyd, creates a database on the test PostgreSQL (PGHOST/PGPORT, default
// 127.0.0.1:5432, user postgres), creates a tenant with the CLI, starts `complyd serve`, and seeds
// users and a case through the API. The fixture is written to artifacts/fixture.json.
const root = resolve(import.meta.dirname, '..', '..');
const art = resolve(import.meta.dirname, '..', 'artifacts');
export const port = Number(process.env.COMPLYD_TEST_PORT ?? 18089); // another port lets suites of two worktrees run at once
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
  // artifacts/screens holds this run's screenshots only (.ci/run lists and keeps them).
  rmSync(join(art, 'screens'), { recursive: true, force: true });
  mkdirSync(join(art, 'screens'), { recursive: true });
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
    COMPLYD_SANCTIONS_REFRESH: 'off',
    COMPLYD_WEBHOOK_ALLOW_PRIVATE: 'true', // the webhook spec's receiver listens on 127.0.0.1
  };
  execFileSync(bin, ['migrate'], { env, stdio: 'ignore' });
  // A one-entry OFAC SDN list (the official download is not reachable from tests).
  const sdn = join(art, 'sdn.csv');
  writeFileSync(sdn, '9001,"OKAFOR, Emeka Johnson","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 01 Jan 1970."\r\n\x1a');
  execFileSync(bin, ['watchlist', 'import', '--format', 'ofac-sdn-csv', '--list', 'OFAC-SDN', sdn], { env, stdio: 'ignore' });
  // An OpenSanctions (FtM) sample at its 2024-05-27 version: stale on the watchlists screen. No UN
  // list: the screen warns that an expected list is missing.
  execFileSync(bin, ['watchlist', 'import', '--format', 'ftm', '--list', 'OPENSANCTIONS', '--version', '20240527134702-zbn',
    join(root, 'internal', 'sanctions', 'testdata', 'opensanctions', 't1', 'entities.ftm.json')], { env, stdio: 'ignore' });
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
  // A KYC application with a passport scan (a real PNG), and a screened transaction.
  const app = await rest('/kyc/applications', adminTok, { entityType: 'INDIVIDUAL', firstName: 'Amaka', lastName: 'Eze', bvn: '22212345678' });
  const form = new FormData();
  form.append('documentType', 'PASSPORT');
  form.append('file', new Blob([Buffer.from(png, 'base64')], { type: 'image/png' }), 'passport.png');
  const up = await fetch(`${base}/api/v1/kyc/applications/${app.id}/documents`, { method: 'POST', headers: { Authorization: 'Bearer ' + adminTok }, body: form });
  if (!up.ok) throw new Error('upload: ' + (await up.text()));
  const tx = await rest('/transactions/screen', adminTok, { externalId: 'WEB-TX-1', type: 'TRANSFER', channel: 'MOBILE_APP', amount: 2500000,
    senderAccountNumber: '0123456789', senderBvn: '22212345678', senderName: 'Emeka Okafor', receiverName: 'Chidi Okeke', timestamp: new Date().toISOString() });

  await rest('/kyc/kyb/applications', adminTok, { companyName: 'Lagos Fresh Foods Limited', rcNumber: 'RC1234567', address: '12 Allen Avenue, Ikeja',
    incorporationDate: '2015-06-10', directors: [{ name: 'Adebayo Oluwaseun Ogunleye', bvn: '22234567801', nationality: 'Nigerian' }],
    beneficialOwners: [{ name: 'Adebayo Oluwaseun Ogunleye', percentage: 60, bvn: '22234567801' }] });

  // A second tenant whose policy requires MFA: its officer enrols (setup + verify with a TOTP
  // code), and its case is "another tenant's case" for the first tenant's officers.
  const admin2 = 'admin@mfa.test';
  execFileSync(bin, ['tenant', 'create', '--name', 'MFA Bank', '--slug', 'mfabank', '--admin-email', admin2, '--admin-password', password], { env, stdio: 'ignore' });
  const admin2Tok = (await rest('/auth/login', '', { email: admin2, password })).accessToken;
  const mfaUser = 'mfa-officer@mfa.test';
  await rest('/auth/users', admin2Tok, { email: mfaUser, password, firstName: 'Mfa', lastName: 'Officer', role: 'COMPLIANCE_OFFICER' });
  const otherCase = await rest('/cases', admin2Tok, { type: 'AML_ALERT', priority: 'LOW', title: 'Other tenant', description: 'not yours' });
  const patched = await fetch(base + '/api/v1/tenants/me/security', { method: 'PATCH', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + admin2Tok }, body: JSON.stringify({ mfaRequired: true }) });
  if (!patched.ok) throw new Error('security: ' + (await patched.text()));
  const challenge = await rest('/auth/login', '', { email: mfaUser, password });
  const setup = await rest('/auth/mfa/setup', '', { tempToken: challenge.tempToken });
  const step = Math.floor(Date.now() / 30000);
  await rest('/auth/mfa/verify', '', { tempToken: challenge.tempToken, code: totp(setup.secret, step) });
  writeFileSync(join(art, 'fixture.json'), JSON.stringify({ admin, users, caseId: kase.id, caseNumber: kase.caseNumber, db,
    kycId: app.id, txId: tx.transactionId, mfa: { email: mfaUser, secret: setup.secret, usedStep: step }, otherCaseId: otherCase.id }, null, 2));
}
