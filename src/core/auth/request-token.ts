import type { ClientEmitter } from '../events.js';
import { type IssuedToken, issuedToken } from './issued-token.js';

/** Posts the token request's form (the transport's) and resolves to its answer's JSON and operation name. */
export type TokenPost = (form: string) => Promise<{ answer: unknown; operation: string }>;

/** The client-credentials token request: its form, and the `'token'` event for what it gave. */
export async function requestToken(
  post: TokenPost,
  events: ClientEmitter,
  clientId: string | undefined,
  clientSecret: string,
  scope: string | undefined,
): Promise<IssuedToken> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId ?? '',
    client_secret: clientSecret,
  });
  if (scope !== undefined) form.set('scope', scope);
  const { answer, operation } = await post(form.toString());
  const issued = issuedToken(answer, operation);
  events.emit('token', { expires_in: issued.expires_in, scope: issued.scope });
  return issued;
}
