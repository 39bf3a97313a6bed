/**
 * What only some clients need, loaded together through load.ts: pacing and shared state, and the
 * client-credentials flow. Nothing here imports, at run time, the code every client loads: what it
 * needs of it is handed in (the token request, the budget), so a browser bundle splits it off whole.
 */
export { clientCredentials } from './auth/client-credentials.js';
export { fingerprint } from './auth/fingerprint.js';
export { requestToken } from './auth/request-token.js';
export { sharedParts } from './pacing/pacer.js';
