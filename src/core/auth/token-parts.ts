import { ResponseValidationError } from '../errors.js';
import { isHeaderSafe } from './credentials.js';
import type { TokenCheckParts } from './issued-token.js';

/** The error class and header check that the token answer's check (issued-token.ts) is handed. */
export const TOKEN_PARTS: TokenCheckParts = { ResponseValidationError, isHeaderSafe };
