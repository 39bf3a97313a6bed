/**
 * Each documented params interface accepts exactly what its schema accepts (STYLE.md §2b), as the
 * result types are held to their schemas: `toEqualTypeOf` compares the shapes, and assignability both
 * ways under the project's `exactOptionalPropertyTypes` tells `limit?: number` from zod's
 * `limit?: number | undefined`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type {
  CreateCallParams,
  CreateCallParamsSchema,
  ListRecentCallsParams,
  ListRecentCallsParamsSchema,
} from '../../../src/resources/calls-schemas.js';
import { same } from '../../helpers/mutual.js';

describe('params interfaces equal what their schemas accept', () => {
  it('calls', () => {
    expectTypeOf<z.input<typeof ListRecentCallsParamsSchema>>().toEqualTypeOf<ListRecentCallsParams>();
    expectTypeOf<z.input<typeof CreateCallParamsSchema>>().toEqualTypeOf<CreateCallParams>();
    expect([
      same<z.input<typeof ListRecentCallsParamsSchema>, ListRecentCallsParams>(true),
      same<z.input<typeof CreateCallParamsSchema>, CreateCallParams>(true),
    ]).not.toContain(false);
  });
});
