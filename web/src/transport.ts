import { createConnectTransport } from '@connectrpc/connect-web';
import { Code, ConnectError, createClient, type Interceptor } from '@connectrpc/connect';
import { ErrorInfoSchema } from './gen/complyd/v1/common_pb';
import { AuthService } from './gen/complyd/v1/auth_pb';

// sessionEvents connects the transport to the session provider: onUnauthenticated is called when
// the session cannot be renewed (the refresh cookie is refused), onRenewed after each renewal.
export const sessionEvents = { onUnauthenticated: (): void => {}, onRenewed: (): void => {} };

// The dashboard speaks Connect (JSON) to the same origin that served it; the session is the
// HttpOnly cookie pair set at sign-in, so credentials are included and no token reaches JS.
const base = {
  baseUrl: window.location.origin,
  fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, { ...init, credentials: 'include' }),
};
const authClient = createClient(AuthService, createConnectTransport(base));

// Silent refresh (docs/guide/dashboard.md "Sessions"): the access cookie lives a short time
// (COMPLYD_ACCESS_TTL, 15 min by default) and the 7-day refresh cookie renews it through
// AuthService.Refresh. The app renews shortly before the access cookie ends (scheduleRenewal),
// and any call answered Unauthenticated is retried once after a renewal; only when the refresh
// itself is refused does the officer see the sign-in prompt — with the screen, and so the
// drafts, kept mounted underneath.
let inflight: Promise<boolean> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

// renew exchanges the refresh cookie for a new cookie pair; concurrent callers share one call
// (the refresh token rotates: a second concurrent use would be a reuse).
export function renew(): Promise<boolean> {
  inflight ??= authClient
    .refresh({})
    .then((res) => {
      scheduleRenewal(res.expiresIn ?? 0);
      sessionEvents.onRenewed();
      return true;
    })
    .catch(() => false)
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

// scheduleRenewal renews the session when three quarters of its seconds have passed (at least
// 5 s before its end), so that an officer working without pause never meets an expired cookie.
export function scheduleRenewal(seconds: number) {
  clearTimeout(timer);
  if (seconds <= 0) return;
  const ms = Math.max(1000, Math.min(seconds * 750, (seconds - 5) * 1000));
  // A renewal refused on schedule opens the sign-in prompt at once, before the officer's next
  // action meets it.
  timer = setTimeout(() => void renew().then((ok) => { if (!ok) sessionEvents.onUnauthenticated(); }), ms);
}

// stopRenewal ends the schedule (sign-out).
export function stopRenewal() {
  clearTimeout(timer);
}

const isSessionError = (e: unknown, url: string) => {
  const err = ConnectError.from(e);
  // INVALID_CREDENTIALS (also Unauthenticated) answers a wrong current password or MFA code of
  // a live session (AccountService): that is the form's error, not an expired session.
  const wrongSecret = err.findDetails(ErrorInfoSchema).some((i) => i.code === 'INVALID_CREDENTIALS');
  return err.code === Code.Unauthenticated && !wrongSecret && !url.includes('AuthService/Login') && !url.includes('AuthService/Refresh') && !url.includes('AuthService/VerifyMfa');
};

const keepSession: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (e) {
    if (!isSessionError(e, req.url)) throw e;
    if (await renew()) return await next(req);
    // Me at start-up without a session is "not signed in", not "session expired".
    if (!req.url.includes('AuthService/Me')) sessionEvents.onUnauthenticated();
    throw e;
  }
};

export const transport = createConnectTransport({ ...base, interceptors: [keepSession] });

// errorText turns an API error into the sentence shown next to what caused it: the message and,
// for a VALIDATION_ERROR, each invalid field with what is wrong with it (the ErrorInfo detail).
export function errorText(e: unknown): string {
  if (!e) return '';
  const err = ConnectError.from(e);
  if (err.code === Code.NotFound) return 'Not found: ' + err.rawMessage;
  if (err.code === Code.PermissionDenied) return 'Not allowed: ' + err.rawMessage;
  const fields = err.findDetails(ErrorInfoSchema).flatMap((i) => i.details.map((d) => `${d.field} ${d.message}`));
  const msg = err.rawMessage || err.message;
  return fields.length > 0 ? `${msg}: ${fields.join('; ')}` : msg;
}
