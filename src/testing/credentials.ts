import { type ApiVersion, SandboxError } from './http.js';
import type { SandboxPlan } from './plans.js';

/** An OAuth application allowed to use the client-credentials grant on v2. */
export interface SandboxClient {
  /** `client_id` accepted by `POST /v2/oauth/token`. */
  clientId: string;
  /** Its `client_secret`. */
  clientSecret: string;
  /** Scopes the application may be granted. Default calls:read calls:write contacts:read. */
  scopes?: string[];
  /**
   * Default 'starter' (100 requests per minute); `{ requestsPerMinute }` runs it at a chosen rate.
   * One budget for the application, whatever token, client or process the requests come from.
   */
  plan?: SandboxPlan;
  /** Administrators may pass `user_id` on calls endpoints. Default true. */
  admin?: boolean;
}

/** A v1 API key. */
export interface SandboxApiKey {
  /** The bearer value accepted on `/v1/...`. */
  key: string;
  /** Default users:read users:write. */
  permissions?: string[];
  /** Default 'starter' (100 requests per minute); `{ requestsPerMinute }` runs it at a chosen rate. */
  plan?: SandboxPlan;
}

/** Who a request is made as, once its bearer value is accepted. */
export interface Principal {
  /** Its rate budget: an OAuth application on v2, an API key on v1. */
  version: ApiVersion;
  /** The client id (v2) or the API key (v1). */
  id: string;
  scopes: readonly string[];
  admin: boolean;
}

export const DEFAULT_CLIENT = {
  clientId: 'sandbox_client_id',
  clientSecret: 'sandbox_client_secret',
  scopes: ['calls:read', 'calls:write', 'contacts:read'],
} as const;
export const DEFAULT_API_KEY = {
  key: 'sandbox_api_key',
  permissions: ['users:read', 'users:write'],
} as const;

/** Signs `callback_url` notifications unless `callbackSecret` says otherwise (they have no webhook secret). */
export const DEFAULT_CALLBACK_SECRET = 'sandbox_callback_secret';

/** Token lifetime in seconds (SPEC.md, Authentication: 3600 in the shown response). */
const TOKEN_LIFETIME_SECONDS = 3600;

interface Token {
  principal: Principal;
  expiresAt: number;
}

const unauthorized = (message: string) => new SandboxError(401, 'unauthorized', message);

function randomToken(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Client credentials, issued tokens and API keys. */
export class Credentials {
  readonly #clients = new Map<string, SandboxClient>();
  readonly #apiKeys = new Map<string, SandboxApiKey>();
  readonly #tokens = new Map<string, Token>();

  constructor(clients: SandboxClient[], apiKeys: SandboxApiKey[]) {
    for (const client of clients) this.#clients.set(client.clientId, client);
    for (const apiKey of apiKeys) this.#apiKeys.set(apiKey.key, apiKey);
  }

  /**
   * POST /v2/oauth/token. Granted scopes are the requested ones (400 `invalid_scope` if any is one
   * the application may not have); with no `scope` field, all of the application's scopes.
   */
  issueToken(form: URLSearchParams, now: number) {
    if (form.get('grant_type') !== 'client_credentials') {
      throw new SandboxError(400, 'invalid_parameter', 'grant_type must be client_credentials');
    }
    // A missing field is a malformed request (SPEC.md, Errors: 400 invalid_parameter), not a
    // wrong credential.
    for (const field of ['client_id', 'client_secret']) {
      if (!form.get(field)) throw new SandboxError(400, 'invalid_parameter', `${field} is required`);
    }
    const client = this.#clients.get(form.get('client_id') ?? '');
    if (!client || client.clientSecret !== form.get('client_secret')) {
      throw unauthorized('Invalid client credentials');
    }
    const allowed = client.scopes ?? [...DEFAULT_CLIENT.scopes];
    const requested = form.get('scope')?.split(' ').filter(Boolean);
    // SPEC.md names no error for a scope; RFC 6749 (5.2) answers a scope that is unknown or
    // beyond the application's with 400 invalid_scope, and no token.
    const refused = requested?.filter((scope) => !allowed.includes(scope)) ?? [];
    if (refused.length > 0) {
      throw new SandboxError(400, 'invalid_scope', `Scope not allowed for this client: ${refused.join(' ')}`);
    }
    // An empty scope would give a token every call is refused with (403), far from the cause.
    if (requested?.length === 0) throw new SandboxError(400, 'invalid_scope', 'scope names no scope');
    const scopes = requested ? allowed.filter((scope) => requested.includes(scope)) : allowed;
    const accessToken = randomToken('sbx_at_');
    const principal: Principal = { version: 'v2', id: client.clientId, scopes, admin: client.admin ?? true };
    this.#tokens.set(accessToken, { principal, expiresAt: now + TOKEN_LIFETIME_SECONDS * 1000 });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_SECONDS,
      scope: scopes.join(' '),
    };
  }

  /** The principal behind a v2 bearer token, or 401 `unauthorized`. */
  fromToken(authorization: string | null, now: number): Principal {
    const token = this.#tokens.get(bearer(authorization) ?? '');
    if (!token) throw unauthorized('Authentication required: missing or invalid access token');
    if (token.expiresAt <= now) throw unauthorized('The access token has expired');
    return token.principal;
  }

  /** The principal behind a v1 API key, or 401 `authentication_failed`. */
  fromApiKey(authorization: string | null): Principal {
    const apiKey = this.#apiKeys.get(bearer(authorization) ?? '');
    if (!apiKey) throw new SandboxError(401, 'authentication_failed', 'Invalid or missing API key');
    // Keys come from an administrator's account settings (SPEC.md, Authentication 8).
    return {
      version: 'v1',
      id: apiKey.key,
      scopes: apiKey.permissions ?? [...DEFAULT_API_KEY.permissions],
      admin: true,
    };
  }
}

function bearer(authorization: string | null): string | undefined {
  const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
  return match?.[1];
}

/** 403 unless the principal holds one of `scopes`. */
export function requireScope(principal: Principal, ...scopes: string[]): void {
  if (!scopes.some((scope) => principal.scopes.includes(scope))) {
    throw new SandboxError(403, 'forbidden', `This request needs one of the scopes: ${scopes.join(', ')}`);
  }
}

/** 403 for `user_id` from a non-administrator (SPEC.md, Authentication 7). */
export function requireAdminFor(principal: Principal, userId: string | null | undefined): void {
  if (userId != null && !principal.admin) {
    throw new SandboxError(403, 'forbidden', 'user_id is for administrators only');
  }
}
