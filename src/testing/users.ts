import { type Principal, requireScope } from './credentials.js';
import { invalid, notFound, readJsonObject, success } from './http.js';
import { enumParam, enumValue, intParam, onlyFields, optionalString, requiredString } from './validate.js';

const ROLES = ['admin', 'user', 'guest'] as const;
const STATUSES = ['active', 'inactive', 'pending'] as const;
const OPTIONAL_TEXT = ['department', 'location', 'phone'] as const;

interface StoredUser {
  id: string;
  name: string;
  email: string;
  role: (typeof ROLES)[number];
  status: (typeof STATUSES)[number];
  phone?: string;
  department?: string;
  location?: string;
  created_at: string;
  updated_at: string;
  /**
   * ISO 8601 time of the last login. No one logs in to the sandbox, and SPEC.md types the field as
   * a string in every form with no "never": a user created through the API has its creation time.
   */
  last_login_at: string;
  preferences: {
    language: string;
    timezone: string;
    notifications: { email: boolean; sms: boolean; push: boolean };
  };
}

const listForm = (user: StoredUser) => ({
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  status: user.status,
  created_at: user.created_at,
  updated_at: user.updated_at,
  last_login_at: user.last_login_at,
});

function email(value: string): string {
  if (!/^[^@\s]+@[^@\s]+$/.test(value)) throw invalid('email must be an e-mail address');
  return value;
}

/** v1 users: CRUD, filters and page pagination (SPEC.md, Version 1). */
export class Users {
  readonly #users = new Map<string, StoredUser>();
  #next = 1;

  constructor(private readonly now: () => string) {}

  list(query: URLSearchParams, principal: Principal) {
    requireScope(principal, 'users:read');
    const page = intParam(query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
    const perPage = intParam(query, 'per_page', 10, 1, 100);
    const role = enumParam(query, 'role', ROLES);
    const status = enumParam(query, 'status', STATUSES);
    const search = query.get('search')?.toLowerCase();
    const matching = [...this.#users.values()].filter(
      (user) =>
        (role === undefined || user.role === role) &&
        (status === undefined || user.status === status) &&
        (!search || user.name.toLowerCase().includes(search) || user.email.toLowerCase().includes(search)),
    );
    const users = matching.slice((page - 1) * perPage, page * perPage).map(listForm);
    return success(
      { users },
      {
        pagination: {
          total: matching.length,
          page,
          per_page: perPage,
          pages: Math.ceil(matching.length / perPage),
        },
      },
    );
  }

  get(id: string, principal: Principal) {
    requireScope(principal, 'users:read');
    return success({ user: this.#find(id) });
  }

  async create(request: Request, principal: Principal) {
    requireScope(principal, 'users:write');
    const body = await readJsonObject(request);
    onlyFields(body, ['name', 'email', 'role', 'send_welcome_email', ...OPTIONAL_TEXT]);
    if (body.send_welcome_email !== undefined && typeof body.send_welcome_email !== 'boolean') {
      throw invalid('send_welcome_email must be a boolean');
    }
    const now = this.now();
    const fields = {
      name: requiredString(body, 'name'),
      email: this.#unusedEmail(email(requiredString(body, 'email'))),
      role: body.role === undefined ? 'user' : enumValue(body.role, 'role', ROLES),
    };
    const optional: Partial<Pick<StoredUser, (typeof OPTIONAL_TEXT)[number]>> = {};
    for (const field of OPTIONAL_TEXT) {
      const value = optionalString(body, field);
      if (value !== undefined) optional[field] = value;
    }
    // The id is taken once every field is accepted: a refused create leaves no gap in the ids.
    const user: StoredUser = {
      id: `usr_${String(this.#next++).padStart(6, '0')}`,
      ...fields,
      status: 'pending',
      ...optional,
      created_at: now,
      updated_at: now,
      last_login_at: now,
      preferences: {
        language: 'en',
        timezone: 'UTC',
        notifications: { email: true, sms: false, push: true },
      },
    };
    this.#users.set(user.id, user);
    return success({ user });
  }

  async update(id: string, request: Request, principal: Principal) {
    requireScope(principal, 'users:write');
    const user = this.#find(id);
    const body = await readJsonObject(request);
    onlyFields(body, ['name', 'email', 'role', 'status', ...OPTIONAL_TEXT]);
    const changes: Partial<StoredUser> = {};
    if (body.name !== undefined) changes.name = requiredString(body, 'name');
    if (body.email !== undefined) changes.email = this.#unusedEmail(email(requiredString(body, 'email')), id);
    if (body.role !== undefined) changes.role = enumValue(body.role, 'role', ROLES);
    if (body.status !== undefined)
      changes.status = enumValue(body.status, 'status', ['active', 'inactive'] as const);
    for (const field of OPTIONAL_TEXT) {
      const value = optionalString(body, field);
      if (value !== undefined) changes[field] = value;
    }
    Object.assign(user, changes, { updated_at: this.now() });
    return success({ user });
  }

  delete(id: string, principal: Principal) {
    requireScope(principal, 'users:write');
    this.#find(id);
    this.#users.delete(id);
    return success({ deleted: true, id });
  }

  #find(id: string): StoredUser {
    const user = this.#users.get(id);
    if (!user) throw notFound(`No user with id ${id}`);
    return user;
  }

  /** E-mail addresses are unique; a duplicate is `invalid_parameter` (the spec has no 409). */
  #unusedEmail(value: string, ownerId?: string): string {
    const lower = value.toLowerCase();
    for (const user of this.#users.values()) {
      if (user.id !== ownerId && user.email.toLowerCase() === lower) throw invalid('email is already in use');
    }
    return value;
  }
}
