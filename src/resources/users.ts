import * as z from 'zod/mini';
import { TelephonyError } from '../core/errors.js';
import { runOperation } from '../core/operation.js';
import { path } from '../core/request/path.js';
import { APIPromise, type WithResponse } from '../core/response/api-promise.js';
import { listPages, type PagePromise } from '../core/response/page.js';
import { type NumberedPagination, numberedPages } from '../core/response/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { emailAddress, intBetween, notEmpty, oneOf, openEnum } from './fields.js';
import { APIResource } from './resource.js';

const ROLES = ['admin', 'user', 'guest'] as const;

/** A user's notification channels (SPEC.md, User: `preferences.notifications`). */
export interface UserNotifications {
  /** E-mail notifications on. */
  email: boolean;
  /** SMS notifications on. */
  sms: boolean;
  /** Push notifications on. */
  push: boolean;
  /** Fields the service adds. */
  [field: string]: unknown;
}

/** A user's preferences, returned by `users.get` (not by `users.list`). */
export interface UserPreferences {
  /** Preferred language. */
  language?: string | undefined;
  /** Time zone. */
  timezone?: string | undefined;
  /** Which notification channels are on. */
  notifications?: UserNotifications | undefined;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const UserPreferencesSchema = z.looseObject({
  language: z.optional(z.string()),
  timezone: z.optional(z.string()),
  notifications: z.optional(z.looseObject({ email: z.boolean(), sms: z.boolean(), push: z.boolean() })),
});

/**
 * A user (v1; SPEC.md, User). `users.list` yields the list form (no phone, department, location or
 * preferences); `users.get`, `create` and `update` return the full user. Extra fields the service
 * adds are kept.
 */
export interface User {
  /** User id, for `users.get`, `update` and `delete`. */
  id: string;
  /** Full name. */
  name: string;
  /** E-mail address. */
  email: string;
  /** `admin`, `user` or `guest`. */
  role: 'admin' | 'user' | 'guest' | (string & {});
  /** `pending` after creation, then `active` or `inactive` (SPEC.md, User status values). */
  status: 'active' | 'inactive' | 'pending' | (string & {});
  /** Phone number; not in the list form. */
  phone?: string | undefined;
  /** Department; not in the list form. */
  department?: string | undefined;
  /** Location; not in the list form. */
  location?: string | undefined;
  /** Creation time, ISO 8601 UTC date-time. */
  created_at: string;
  /** Last change, ISO 8601 UTC date-time. */
  updated_at: string;
  /** Last login, ISO 8601 UTC date-time; `null` (or absent) before the first login. */
  last_login_at?: string | null | undefined;
  /** Language, time zone and notifications; returned by `users.get` only. */
  preferences?: UserPreferences | undefined;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const UserSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: openEnum<(typeof ROLES)[number]>(),
  status: openEnum<'active' | 'inactive' | 'pending'>(),
  phone: z.optional(z.string()),
  department: z.optional(z.string()),
  location: z.optional(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  last_login_at: z.optional(z.nullable(z.string())),
  preferences: z.optional(UserPreferencesSchema),
});

/** Query of `GET /v1/users`, held equal to {@link ListUsersParams} by a type test. Unknown keys are refused. */
export const ListUsersParamsSchema = z.strictObject({
  page: z.optional(intBetween(1)),
  per_page: z.optional(intBetween(1, 100)),
  role: z.optional(oneOf(ROLES)),
  status: z.optional(oneOf(['active', 'inactive', 'pending'])),
  search: z.optional(z.string()),
});
/**
 * Filters and paging of `users.list` (SPEC.md, GET /v1/users query parameters); all optional.
 * Unknown keys reject with `ValidationError`.
 */
export interface ListUsersParams {
  /** Page number: an integer ≥ 1, default 1. `for await` advances it for you. */
  page?: number | undefined;
  /** Users per page: an integer 1–100, default 10. */
  per_page?: number | undefined;
  /** Only users with this role: `admin`, `user` or `guest`. */
  role?: 'admin' | 'user' | 'guest' | undefined;
  /** Only users in this status: `active`, `inactive` or `pending` (SPEC.md, User status values). */
  status?: 'active' | 'inactive' | 'pending' | undefined;
  /** Only users whose name or e-mail address matches this text (SPEC.md does not say how it matches). */
  search?: string | undefined;
}

const nonEmpty = () => z.string().check(notEmpty('must not be empty'));
const editable = {
  department: z.optional(z.string()),
  location: z.optional(z.string()),
  phone: z.optional(z.string()),
};

/** Body of `POST /v1/users`, held equal to {@link CreateUserParams} by a type test. */
export const CreateUserParamsSchema = z.strictObject({
  name: nonEmpty(),
  email: emailAddress(),
  role: z.optional(oneOf(ROLES)),
  ...editable,
  send_welcome_email: z.optional(z.boolean()),
});
/**
 * What `users.create` needs: `name` and `email`; the rest optional (SPEC.md, POST /v1/users body).
 * Invalid values and unknown keys reject with `ValidationError` before any request.
 */
export interface CreateUserParams {
  /** Full name; not empty. */
  name: string;
  /**
   * E-mail address, checked only for its shape (`local@domain`, no spaces). A create whose answer was
   * lost finds the user by it.
   */
  email: string;
  /** `admin`, `user` or `guest`; default `user`. */
  role?: 'admin' | 'user' | 'guest' | undefined;
  /** Department, free text. */
  department?: string | undefined;
  /** Location, free text. */
  location?: string | undefined;
  /** Phone number, E.164 (`+14155550123`) as SPEC.md writes numbers; sent as given, not checked. */
  phone?: string | undefined;
  /** Send the user a welcome e-mail; default true. */
  send_welcome_email?: boolean | undefined;
}

/** Body of `PATCH /v1/users/{user_id}`, held equal to {@link UpdateUserParams} by a type test. */
export const UpdateUserParamsSchema = z.strictObject({
  name: z.optional(nonEmpty()),
  email: z.optional(emailAddress()),
  role: z.optional(oneOf(ROLES)),
  status: z.optional(oneOf(['active', 'inactive'])),
  ...editable,
});
/**
 * What `users.update` changes: only the fields given (SPEC.md, PATCH /v1/users/{user_id} body).
 * Invalid values and unknown keys reject with `ValidationError` before any request.
 */
export interface UpdateUserParams {
  /** Full name; not empty. */
  name?: string | undefined;
  /** E-mail address, checked only for its shape (`local@domain`, no spaces). */
  email?: string | undefined;
  /** `admin`, `user` or `guest`. */
  role?: 'admin' | 'user' | 'guest' | undefined;
  /** `active` or `inactive`: a user cannot be set back to `pending` (SPEC.md, User status values). */
  status?: 'active' | 'inactive' | undefined;
  /** Department, free text. */
  department?: string | undefined;
  /** Location, free text. */
  location?: string | undefined;
  /** Phone number, E.164 (`+14155550123`) as SPEC.md writes numbers; sent as given, not checked. */
  phone?: string | undefined;
}

/** What `users.delete` returns (SPEC.md, DELETE /v1/users/{user_id}). */
export interface DeletedUser {
  /** `true` once the user is removed. */
  deleted: boolean;
  /** The removed user's id. */
  id: string;
  /** Fields the service adds. */
  [field: string]: unknown;
}
export const DeletedUserSchema = z.looseObject({ deleted: z.boolean(), id: z.string() });

const UserData = z.looseObject({ user: UserSchema });

/** Users (v1, authorized with the API key). */
export class Users extends APIResource {
  /**
   * Every user, 10 per page unless `per_page` says otherwise (max 100), in list form. Await it for one
   * {@link Page}; iterate it with `for await` for every user of every page, fetched one page at a time.
   * Authorized with `apiKey` at `baseUrlV1`.
   *
   * @throws {ValidationError} (a rejection, nothing sent) when a param is invalid or unknown.
   *
   * @example
   * ```ts
   * for await (const user of client.users.list({ role: 'admin', per_page: 100 })) {
   *   console.log(user.id, user.email);
   * }
   * ```
   */
  list(params: ListUsersParams = {}, options?: RequestOptions): PagePromise<User, NumberedPagination> {
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

  /**
   * One user, with `preferences`.
   * @throws {NotFoundError} when no user has this id.
   */
  get(userId: string, options?: RequestOptions): APIPromise<User> {
    return runOperation(
      this.transport,
      () => ({
        method: 'GET',
        path: path('users.get')`/v1/users/${{ userId }}`,
        data: UserData,
        result: (data) => data.user,
      }),
      options,
    );
  }

  /**
   * Creates a user (status `pending`; a welcome e-mail is sent unless `send_welcome_email: false`).
   * When the answer is lost after sending (outcome `unknown`), it looks the user up by e-mail
   * (`users.list({ search: email })`, one request) and resolves with the user it finds.
   * @throws {ValidationError} (a rejection, nothing sent) when `name` is empty, `email` is not an e-mail address, or a field is unknown.
   */
  create(params: CreateUserParams, options?: RequestOptions): APIPromise<User> {
    return new APIPromise(this.#create(params, options));
  }

  async #create(params: CreateUserParams, options?: RequestOptions): Promise<WithResponse<User>> {
    try {
      return await runOperation(
        this.transport,
        () => ({
          method: 'POST',
          path: '/v1/users',
          body: { schema: CreateUserParamsSchema, value: params },
          data: UserData,
          result: (data) => data.user,
        }),
        options,
      ).withResponse();
    } catch (error) {
      if (!(error instanceof TelephonyError) || error.outcome !== 'unknown') throw error;
      // The service may have created the user: the list of users by that e-mail says whether it did.
      const { settleUnknownCreate } = await import('./users-lookup.js');
      return settleUnknownCreate(this, error, params.email, options?.signal);
    }
  }

  /**
   * Changes only the fields given; `status` moves a user to `active` or `inactive`.
   * @throws {NotFoundError} when no user has this id.
   */
  update(userId: string, params: UpdateUserParams, options?: RequestOptions): APIPromise<User> {
    return runOperation(
      this.transport,
      () => ({
        method: 'PATCH',
        path: path('users.update')`/v1/users/${{ userId }}`,
        body: { schema: UpdateUserParamsSchema, value: params },
        data: UserData,
        result: (data) => data.user,
      }),
      options,
    );
  }

  /**
   * Deletes a user and all their data. Irreversible.
   * @throws {NotFoundError} when no user has this id.
   */
  delete(userId: string, options?: RequestOptions): APIPromise<DeletedUser> {
    return runOperation(
      this.transport,
      () => ({
        method: 'DELETE',
        path: path('users.delete')`/v1/users/${{ userId }}`,
        data: DeletedUserSchema,
        ifGone: { deleted: true, id: userId },
        result: (data) => data,
      }),
      options,
    );
  }
}
