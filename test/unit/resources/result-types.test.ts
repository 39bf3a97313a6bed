/**
 * Each documented result interface is the type its schema parses (STYLE.md §2b): a field added,
 * dropped or retyped on one side and not the other fails `tsc` here. Two checks, because each misses
 * something alone: `toEqualTypeOf` compares the shapes, and assignability both ways under the
 * project's `exactOptionalPropertyTypes` tells `name?: string` from zod's `name?: string | undefined`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type {
  NumberedPagination,
  NumberedPaginationSchema,
  OffsetPagination,
  OffsetPaginationSchema,
} from '../../../src/core/response/pagination.js';
import type {
  Call,
  CallDetail,
  CallDetailSchema,
  CallParty,
  CallPartySchema,
  CallSchema,
  CreatedCall,
  CreatedCallSchema,
  EndedCall,
  EndedCallSchema,
  TransferredCall,
  TransferredCallSchema,
} from '../../../src/resources/calls-schemas.js';
import type { LegacyCall, LegacyCallSchema } from '../../../src/resources/legacy-calls.js';
import type {
  CallStats,
  CallStatsSchema,
  DailyCallStats,
  DailyCallStatsSchema,
} from '../../../src/resources/stats.js';
import type {
  DeletedUser,
  DeletedUserSchema,
  User,
  UserPreferences,
  UserPreferencesSchema,
  UserSchema,
} from '../../../src/resources/users.js';
import { same } from '../../helpers/mutual.js';

describe('result interfaces equal what their schemas parse', () => {
  it('calls', () => {
    expectTypeOf<z.output<typeof CallPartySchema>>().toEqualTypeOf<CallParty>();
    expectTypeOf<z.output<typeof CallSchema>>().toEqualTypeOf<Call>();
    expectTypeOf<z.output<typeof CallDetailSchema>>().toEqualTypeOf<CallDetail>();
    expectTypeOf<z.output<typeof CreatedCallSchema>>().toEqualTypeOf<CreatedCall>();
    expectTypeOf<z.output<typeof EndedCallSchema>>().toEqualTypeOf<EndedCall>();
    expectTypeOf<z.output<typeof TransferredCallSchema>>().toEqualTypeOf<TransferredCall>();
    expectTypeOf<z.output<typeof LegacyCallSchema>>().toEqualTypeOf<LegacyCall>();
    expect([
      same<z.output<typeof CallPartySchema>, CallParty>(true),
      same<z.output<typeof CallSchema>, Call>(true),
      same<z.output<typeof CallDetailSchema>, CallDetail>(true),
      same<z.output<typeof CreatedCallSchema>, CreatedCall>(true),
      same<z.output<typeof EndedCallSchema>, EndedCall>(true),
      same<z.output<typeof TransferredCallSchema>, TransferredCall>(true),
      same<z.output<typeof LegacyCallSchema>, LegacyCall>(true),
    ]).not.toContain(false);
  });

  it('users and stats', () => {
    expectTypeOf<z.output<typeof UserSchema>>().toEqualTypeOf<User>();
    expectTypeOf<z.output<typeof UserPreferencesSchema>>().toEqualTypeOf<UserPreferences>();
    expectTypeOf<z.output<typeof DeletedUserSchema>>().toEqualTypeOf<DeletedUser>();
    expectTypeOf<z.output<typeof CallStatsSchema>>().toEqualTypeOf<CallStats>();
    expectTypeOf<z.output<typeof DailyCallStatsSchema>>().toEqualTypeOf<DailyCallStats>();
    expect([
      same<z.output<typeof UserSchema>, User>(true),
      same<z.output<typeof UserPreferencesSchema>, UserPreferences>(true),
      same<z.output<typeof DeletedUserSchema>, DeletedUser>(true),
      same<z.output<typeof CallStatsSchema>, CallStats>(true),
      same<z.output<typeof DailyCallStatsSchema>, DailyCallStats>(true),
    ]).not.toContain(false);
  });

  it('pagination', () => {
    expectTypeOf<z.output<typeof OffsetPaginationSchema>>().toEqualTypeOf<OffsetPagination>();
    expectTypeOf<z.output<typeof NumberedPaginationSchema>>().toEqualTypeOf<NumberedPagination>();
    expect([
      same<z.output<typeof OffsetPaginationSchema>, OffsetPagination>(true),
      same<z.output<typeof NumberedPaginationSchema>, NumberedPagination>(true),
    ]).not.toContain(false);
  });

  it('the mutual check tells the drifts expectTypeOf lets through apart', () => {
    // exactOptionalPropertyTypes: `?: string` does not take the `undefined` zod's output may hold.
    expect(same<{ a?: string | undefined }, { a?: string }>(false)).toBe(false);
    expect(same<{ a: string }, { a?: string | undefined }>(false)).toBe(false);
    expectTypeOf<{ a?: string | undefined }>().toEqualTypeOf<{ a?: string }>();
  });
});
