import type * as z from 'zod/mini';
import { paramNames, refuseNamed } from './request/extra.js';
import { validateParams } from './request/params.js';
import { operationName } from './request/route.js';
import { APIPromise, sendChecked } from './response/api-promise.js';
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
 * Describes the call, validates params (a `ValidationError` rejects and nothing is sent), sends, unwraps the envelope
 * and checks `data` (a `ResponseValidationError` names the field and the operation).
 */
export function runOperation<Data extends AnySchema, Result>(
  transport: Transport,
  describe: () => OperationSpec<Data, Result>,
  options?: RequestOptions,
): APIPromise<Result> {
  const answer = async () => {
    // Described here, in the promise: a refused id (the `path` tag) rejects it, never throws.
    const spec = describe();
    const operation = operationName(spec);
    const query = spec.query && validateParams(spec.query.schema, spec.query.value, operation);
    const body = spec.body && validateParams(spec.body.schema, spec.body.value, operation);
    // A typed parameter sent as an extra would skip its check: refused even when the call left it out.
    if (spec.query && options?.extraQuery !== undefined)
      refuseNamed(options.extraQuery, paramNames(spec.query.schema), 'extraQuery', operation);
    if (spec.body && options?.extraBody !== undefined)
      refuseNamed(options.extraBody, paramNames(spec.body.schema), 'extraBody', operation);
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
      (sent) => spec.result(parseResponse(spec.data, unwrapSuccess(sent, operation).data, operation)),
    ).withResponse();
  };
  return new APIPromise(answer());
}
