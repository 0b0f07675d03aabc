// The dashboard uses the cookie form of login: tokens never reach JavaScript (HttpOnly cookies).
let tempToken = null;
const $ = (id) => document.getElementById(id);
async function call(path, body) {
  const res = await fetch('/api/v1' + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  return res.json();
}
async function showMe() {
  const r = await call('/auth/me');
  if (!r.success) return false;
  $('login').hidden = true; $('me').hidden = false;
  $('hello').textContent = `${r.data.firstName} ${r.data.lastName} — ${r.data.tenant.name}`;
  $('profile').textContent = JSON.stringify(r.data, null, 2);
  return true;
}
$('f').addEventListener('submit', async (e) => {
  e.preventDefault(); $('msg').textContent = '';
  let r;
  if (tempToken) {
    r = await call('/auth/mfa/verify', { tempToken, code: $('code').value });
  } else {
    r = await call('/auth/login', { email: $('email').value, password: $('password').value, useCookies: true });
  }
  if (!r.success) { $('msg').textContent = r.error.message; return; }
  if (r.data.mfaRequired || r.data.mfaSetupRequired) {
    tempToken = r.data.tempToken; $('mfa').hidden = false;
    $('msg').textContent = r.data.mfaSetupRequired ? 'MFA enrolment required: use the API (/auth/mfa/setup) to enrol, then enter a code.' : 'Enter your MFA code.';
    return;
  }
  await showMe();
});
$('logout').addEventListener('click', async () => { await call('/auth/logout', {}); location.reload(); });
showMe();
