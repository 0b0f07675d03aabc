import { createConnectTransport } from '@connectrpc/connect-web';
import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';
import { ErrorInfoSchema } from './gen/complyd/v1/common_pb';

// onUnauthenticated is set by the session provider: an Unauthenticated answer to any call after
// sign-in means the session expired.
export const sessionEvents = { onUnauthenticated: (): void => {} };

const watchSession: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (e) {
    const err = ConnectError.from(e);
    // INVALID_CREDENTIALS (also Unauthenticated) answers a wrong current password or MFA code
    // of a live session (AccountService): that is the form's error, not an expired session.
    const wrongSecret = err.findDetails(ErrorInfoSchema).some((i) => i.code === 'INVALID_CREDENTIALS');
    if (err.code === Code.Unauthenticated && !wrongSecret && !req.url.includes('AuthService/')) sessionEvents.onUnauthenticated();
    throw e;
  }
};

// The dashboard speaks Connect (JSON) to the same origin that served it; the session is the
// HttpOnly cookie scs sets at sign-in, so credentials are included and no token reaches JS.
export const transport = createConnectTransport({
  baseUrl: window.location.origin,
  fetch: (input, init) => fetch(input, { ...init, credentials: 'include' }),
  interceptors: [watchSession],
});

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
