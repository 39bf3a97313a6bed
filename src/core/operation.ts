import type * as z from 'zod/mini';
import { sendChecked } from './checked-send.js';
import { operationName } from './request/method.js';
import { validateParams } from './request/params.js';
import { unwrapSuccess } from './response/envelope.js';
import { parseResponse } from './response/guard.js';
import type { HttpMethod, QueryValue, RequestOptions, Transport } from './types.js';

type AnySchema = z.core.$ZodType;

/** A declarative description of one endpoint call, as a resource method writes it. */
export interface OperationSpec<Data extends AnySchema, Result> {
  method: HttpMethod;
  path: string;
  /** Query params and their schema; checked before anything is sent. */
  query?: { schema: AnySchema; value: unknown };
  /** JSON body and its schema; checked before anything is sent. */
  body?: { schema: AnySchema; value: unknown };
  /** Schema of the body's `data`. */
  data: Data;
  /** Picks the result out of the checked `data` (`(data) => data.call`). */
  result: (data: z.output<Data>) => Result;
  /** For a DELETE: the `data` a lost answer would have carried, when a retry finds the resource gone. */
  ifGone?: z.input<Data>;
}

/**
 * Validates params (a `ValidationError` rejects and nothing is sent), sends, unwraps the envelope
 * and checks `data` (a `ResponseValidationError` names the field and the operation).
 */
export async function runOperation<Data extends AnySchema, Result>(
  transport: Transport,
  spec: OperationSpec<Data, Result>,
  options?: RequestOptions,
): Promise<Result> {
  const operation = operationName(spec);
  const query = spec.query && validateParams(spec.query.schema, spec.query.value, operation);
  const body = spec.body && validateParams(spec.body.schema, spec.body.value, operation);
  // Checked within the call: a `data` that fails the schema is that call's error (its attempts and id).
  return sendChecked(
    transport,
    {
      method: spec.method,
      path: spec.path,
      query: query as Record<string, QueryValue> | undefined,
      body,
      ifGone: spec.ifGone && { status: 'success', data: spec.ifGone },
    },
    options,
    (answer) => spec.result(parseResponse(spec.data, unwrapSuccess(answer, operation).data, operation)),
  );
}
