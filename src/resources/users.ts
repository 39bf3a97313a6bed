import * as z from 'zod/mini';
import { runOperation } from '../core/operation.js';
import { listPages, numberedPages, type PagePromise } from '../core/pagination.js';
import { path } from '../core/path.js';
import { intBetween, openEnum } from '../core/schema.js';
import type { RequestOptions } from '../core/transport.js';
import { APIResource } from './resource.js';

const ROLES = ['admin', 'user', 'guest'] as const;

/** Preferences, returned by the single-user read. */
export const UserPreferencesSchema = z.looseObject({
  language: z.optional(z.string()),
  timezone: z.optional(z.string()),
  notifications: z.optional(z.looseObject({ email: z.boolean(), sms: z.boolean(), push: z.boolean() })),
});
export type UserPreferences = z.infer<typeof UserPreferencesSchema>;

/** A user (v1). The list form carries no phone, department, location or preferences. */
export const UserSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: openEnum(ROLES),
  status: openEnum(['active', 'inactive', 'pending']),
  phone: z.optional(z.string()),
  department: z.optional(z.string()),
  location: z.optional(z.string()),
  /** ISO 8601 UTC date-time. */
  created_at: z.string(),
  updated_at: z.string(),
  /** `null` (or absent) before the first login. */
  last_login_at: z.optional(z.nullable(z.string())),
  preferences: z.optional(UserPreferencesSchema),
});
export type User = z.infer<typeof UserSchema>;

/** Query of `GET /v1/users`. Unknown keys are refused. */
export const ListUsersParamsSchema = z.strictObject({
  /** ≥ 1, default 1. */
  page: z.optional(intBetween(1)),
  /** 1–100, default 10. */
  per_page: z.optional(intBetween(1, 100)),
  role: z.optional(z.enum(ROLES)),
  status: z.optional(z.enum(['active', 'inactive', 'pending'])),
  /** Matches name or e-mail. */
  search: z.optional(z.string()),
});
export type ListUsersParams = z.input<typeof ListUsersParamsSchema>;

const nonEmpty = () => z.string().check(z.minLength(1, { error: 'must not be empty' }));
const editable = {
  department: z.optional(z.string()),
  location: z.optional(z.string()),
  phone: z.optional(z.string()),
};

/** Body of `POST /v1/users`. */
export const CreateUserParamsSchema = z.strictObject({
  name: nonEmpty(),
  email: z.email({ error: 'must be an e-mail address' }),
  /** Default `user`. */
  role: z.optional(z.enum(ROLES)),
  ...editable,
  /** Default true. */
  send_welcome_email: z.optional(z.boolean()),
});
export type CreateUserParams = z.input<typeof CreateUserParamsSchema>;

/** Body of `PATCH /v1/users/{user_id}`: only the fields given change. */
export const UpdateUserParamsSchema = z.strictObject({
  name: z.optional(nonEmpty()),
  email: z.optional(z.email({ error: 'must be an e-mail address' })),
  role: z.optional(z.enum(ROLES)),
  status: z.optional(z.enum(['active', 'inactive'])),
  ...editable,
});
export type UpdateUserParams = z.input<typeof UpdateUserParamsSchema>;

/** Answer of `DELETE /v1/users/{user_id}`. */
export const DeletedUserSchema = z.looseObject({ deleted: z.boolean(), id: z.string() });
export type DeletedUser = z.infer<typeof DeletedUserSchema>;

const UserData = z.looseObject({ user: UserSchema });

/** Users (v1, authorized with the API key). */
export class Users extends APIResource {
  /** Every user, 10 per page unless `per_page` says otherwise. Iterate with `for await` for every page. */
  list(params: ListUsersParams = {}, options?: RequestOptions): PagePromise<User> {
    return listPages(
      this.transport,
      {
        method: 'GET',
        path: '/v1/users',
        query: { schema: ListUsersParamsSchema, value: params },
        items: 'users',
        itemSchema: UserSchema,
        pagination: numberedPages,
      },
      options,
    );
  }

  /** One user, with `preferences`. */
  async get(userId: string, options?: RequestOptions): Promise<User> {
    const spec = { method: 'GET', path: path`/v1/users/${userId}`, data: UserData } as const;
    return runOperation(this.transport, { ...spec, result: (data) => data.user }, options);
  }

  /** Creates a user (status `pending`). */
  async create(params: CreateUserParams, options?: RequestOptions): Promise<User> {
    return runOperation(
      this.transport,
      {
        method: 'POST',
        path: '/v1/users',
        body: { schema: CreateUserParamsSchema, value: params },
        data: UserData,
        result: (data) => data.user,
      },
      options,
    );
  }

  /** Changes only the fields given; `status` moves a user to `active` or `inactive`. */
  async update(userId: string, params: UpdateUserParams, options?: RequestOptions): Promise<User> {
    return runOperation(
      this.transport,
      {
        method: 'PATCH',
        path: path`/v1/users/${userId}`,
        body: { schema: UpdateUserParamsSchema, value: params },
        data: UserData,
        result: (data) => data.user,
      },
      options,
    );
  }

  /** Deletes a user and all their data. Irreversible. */
  async delete(userId: string, options?: RequestOptions): Promise<DeletedUser> {
    const spec = { method: 'DELETE', path: path`/v1/users/${userId}`, data: DeletedUserSchema } as const;
    return runOperation(this.transport, { ...spec, result: (data) => data }, options);
  }
}
