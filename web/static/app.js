// The dashboard speaks the Connect protocol (JSON over HTTP POST, what connect-web sends) to
// the same handlers as gRPC and /api/v1, with the cookie form of login: tokens never reach
// JavaScript (HttpOnly cookies).
let tempToken = null;
const $ = (id) => document.getElementById(id);
const procedures = {
  '/auth/login': 'complyd.v1.AuthService/Login',
  '/auth/mfa/verify': 'complyd.v1.AuthService/VerifyMfa',
  '/auth/me': 'complyd.v1.AuthService/Me',
  '/auth/logout': 'complyd.v1.AuthService/Logout',
};
async function call(path, body) {
  const res = await fetch('/' + procedures[path], {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Connect-Protocol-Version': '1' },
    body: JSON.stringify(body || {}),
    credentials: 'same-origin',
  });
  const json = await res.json();
  if (!res.ok) return { success: false, error: { message: json.message || res.statusText } };
  return { success: true, data: json };
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
