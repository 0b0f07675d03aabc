import { fixture, password } from './fixture';

// The admin specs check what the screens did through the API itself (audit log, key refusal,
// screenings), as a bank's integration would: fetch from Node, with a bearer token or a key.
export const base = process.env.COMPLYD_TEST_URL ?? `http://127.0.0.1:${process.env.COMPLYD_TEST_PORT ?? 18089}`;

export async function call(method: string, path: string, auth: { token?: string; key?: string }, body?: unknown) {
  const res = await fetch(base + '/api/v1' + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(auth.token ? { Authorization: 'Bearer ' + auth.token } : {}),
      ...(auth.key ? { 'X-API-Key': auth.key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

// token signs in through the API. The seeded admin's token is kept for the worker's life while
// the API still takes it (a suite takes a few minutes, inside a token's lifetime): the login
// throttle allows 10 attempts a minute per email, and the specs together sign that admin in more
// often. No test changes the seeded admin's password; any other user signs in each time, so a
// test of a changed password still sees the refusal.
let adminToken = '';
export async function token(email: string, pw = password): Promise<string> {
  const seeded = email === fixture().admin && pw === password;
  if (seeded && adminToken && (await call('GET', '/auth/me', { token: adminToken })).status === 200) return adminToken;
  const r = await call('POST', '/auth/login', {}, { email, password: pw });
  if (!r.json.success) throw new Error('login: ' + JSON.stringify(r.json));
  if (seeded) adminToken = r.json.data.accessToken;
  return r.json.data.accessToken;
}

// audit returns the audit events of one action, newest first.
export async function audit(tok: string, action: string): Promise<{ action: string; resourceId: string; before?: Record<string, unknown>; after?: Record<string, unknown> }[]> {
  const r = await call('GET', '/audit-events?limit=100&action=' + encodeURIComponent(action), { token: tok });
  if (!r.json.success) throw new Error('audit: ' + JSON.stringify(r.json));
  return r.json.data.items;
}

export const uniq = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

// newUser creates a user of the seeded tenant through the API and returns their email. The specs
// sign the browser in as such a user rather than as the seeded admin, whose email's login
// throttle (10 a minute) the whole suite shares.
export async function newUser(tok: string, role: string, firstName: string, lastName: string): Promise<string> {
  const email = `${role.toLowerCase().replace('_', '-')}-${uniq()}@web.test`;
  const r = await call('POST', '/auth/users', { token: tok }, { email, password, firstName, lastName, role });
  if (!r.json.success) throw new Error('user: ' + JSON.stringify(r.json));
  return email;
}
