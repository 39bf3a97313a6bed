import { ValidationError } from '../errors.js';
import type { ClientEmitter } from '../events.js';
import { operationName } from '../request/method.js';
import { joinUrl } from '../request/url.js';
import { type IssuedToken, issuedToken } from './issued-token.js';

const TOKEN_PATH = '/v2/oauth/token';

/** Sends a form as a POST outside any call (HttpTransport's) and resolves to its answer's JSON. */
export type FormPost = (url: string, operation: string, form: string) => Promise<unknown>;

/** The client-credentials token request. */
export async function requestToken(
  post: FormPost,
  events: ClientEmitter,
  base: string | undefined,
  clientId: string | undefined,
  clientSecret: string | undefined,
  scope: string | undefined,
): Promise<IssuedToken> {
  const operation = operationName({ method: 'POST', path: TOKEN_PATH });
  if (base === undefined) {
    throw new ValidationError(`${operation} needs the baseUrl option`, [
      { path: 'baseUrl', message: 'set baseUrl' },
    ]);
  }
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId ?? '',
    client_secret: clientSecret ?? '',
  });
  if (scope !== undefined) form.set('scope', scope);
  const issued = issuedToken(await post(joinUrl(base, TOKEN_PATH), operation, form.toString()), operation);
  events.emit('token', { expires_in: issued.expires_in, scope: issued.scope });
  return issued;
}
