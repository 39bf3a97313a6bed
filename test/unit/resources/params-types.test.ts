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
  TransferCallParams,
  TransferCallParamsSchema,
} from '../../../src/resources/calls-schemas.js';
import type {
  ListLegacyCallsParams,
  ListLegacyCallsParamsSchema,
} from '../../../src/resources/legacy-calls.js';
import type { CallStatsParams, CallStatsParamsSchema } from '../../../src/resources/stats.js';
import type {
  CreateUserParams,
  CreateUserParamsSchema,
  ListUsersParams,
  ListUsersParamsSchema,
  UpdateUserParams,
  UpdateUserParamsSchema,
} from '../../../src/resources/users.js';
import type { CreateWebhookParams, CreateWebhookParamsSchema } from '../../../src/resources/webhooks.js';
import { same } from '../../helpers/mutual.js';

describe('params interfaces equal what their schemas accept', () => {
  it('calls', () => {
    expectTypeOf<z.input<typeof ListRecentCallsParamsSchema>>().toEqualTypeOf<ListRecentCallsParams>();
    expectTypeOf<z.input<typeof CreateCallParamsSchema>>().toEqualTypeOf<CreateCallParams>();
    expectTypeOf<z.input<typeof TransferCallParamsSchema>>().toEqualTypeOf<TransferCallParams>();
    expect([
      same<z.input<typeof ListRecentCallsParamsSchema>, ListRecentCallsParams>(true),
      same<z.input<typeof CreateCallParamsSchema>, CreateCallParams>(true),
      same<z.input<typeof TransferCallParamsSchema>, TransferCallParams>(true),
    ]).not.toContain(false);
  });

  it('legacy calls and stats', () => {
    expectTypeOf<z.input<typeof ListLegacyCallsParamsSchema>>().toEqualTypeOf<ListLegacyCallsParams>();
    expectTypeOf<z.input<typeof CallStatsParamsSchema>>().toEqualTypeOf<CallStatsParams>();
    expect([
      same<z.input<typeof ListLegacyCallsParamsSchema>, ListLegacyCallsParams>(true),
      same<z.input<typeof CallStatsParamsSchema>, CallStatsParams>(true),
    ]).not.toContain(false);
  });

  it('users', () => {
    expectTypeOf<z.input<typeof ListUsersParamsSchema>>().toEqualTypeOf<ListUsersParams>();
    expectTypeOf<z.input<typeof CreateUserParamsSchema>>().toEqualTypeOf<CreateUserParams>();
    expectTypeOf<z.input<typeof UpdateUserParamsSchema>>().toEqualTypeOf<UpdateUserParams>();
    expect([
      same<z.input<typeof ListUsersParamsSchema>, ListUsersParams>(true),
      same<z.input<typeof CreateUserParamsSchema>, CreateUserParams>(true),
      same<z.input<typeof UpdateUserParamsSchema>, UpdateUserParams>(true),
    ]).not.toContain(false);
  });

  it('webhooks: the same shape, with the documented event types suggested for `events`', () => {
    type Input = z.input<typeof CreateWebhookParamsSchema>;
    // `events` is `string[]` to the schema and an open union of the documented types to the editor:
    // the same strings, so the two are held equal by assignability, the other fields by shape.
    expectTypeOf<Omit<Input, 'events'>>().toEqualTypeOf<Omit<CreateWebhookParams, 'events'>>();
    expect([
      same<Input, CreateWebhookParams>(true),
      same<Input['events'], CreateWebhookParams['events']>(true),
    ]).not.toContain(false);
  });
});
