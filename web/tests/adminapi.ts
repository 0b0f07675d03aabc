import { password } from './fixture';

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

export async function token(email: string, pw = password): Promise<string> {
  const r = await call('POST', '/auth/login', {}, { email, password: pw });
  if (!r.json.success) throw new Error('login: ' + JSON.stringify(r.json));
  return r.json.data.accessToken;
}

// audit returns the audit events of one action, newest first.
export async function audit(tok: string, action: string): Promise<{ action: string; resourceId: string; before?: Record<string, unknown>; after?: Record<string, unknown> }[]> {
  const r = await call('GET', '/audit-events?limit=100&action=' + encodeURIComponent(action), { token: tok });
  if (!r.json.success) throw new Error('audit: ' + JSON.stringify(r.json));
  return r.json.data.items;
}

export const uniq = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
