import { HttpResponse, http } from 'msw';
import type { WarningEvent } from 'telephony-sdk';
import { describe, expect, it, vi } from 'vitest';
import {
  Deprecations,
  deprecationOf,
  parseDeprecation,
  parseSunset,
} from '../../../src/core/response/deprecation.js';
import { parseImfFixdate } from '../../../src/core/response/http-date.js';
import { usersPageBody } from '../../fixtures/users.js';
import { BASE_V1, testClient } from '../../helpers/client.js';
import { server } from '../../helpers/server.js';

const JUNE_2023 = Date.UTC(2023, 5, 30, 23, 59, 59);

describe('Deprecation (RFC 9745)', () => {
  it('reads a structured date, @ and unix seconds', () => {
    expect(parseDeprecation('@1688169599')).toBe(JUNE_2023);
    expect(parseDeprecation(' @0 ')).toBe(0);
    expect(parseDeprecation('@-86400')).toBe(-86_400_000);
  });

  it("reads the drafts' forms: true, and an HTTP-date", () => {
    expect(parseDeprecation('true')).toBe(true);
    expect(parseDeprecation('TRUE')).toBe(true);
    expect(parseDeprecation('Fri, 30 Jun 2023 23:59:59 GMT')).toBe(JUNE_2023);
  });

  it('ignores what is absent or unreadable, as the RFC says a recipient does', () => {
    for (const value of [
      null,
      '',
      'false',
      '1688169599',
      '@1.5',
      '@1234567890123456',
      '@',
      'yes',
      '2023-06-30',
    ])
      expect(parseDeprecation(value)).toBe(false);
  });
});

describe('Sunset (RFC 8594)', () => {
  it('reads an HTTP-date, and nothing else', () => {
    expect(parseSunset('Sun, 31 Dec 2023 00:00:00 GMT')).toBe(Date.UTC(2023, 11, 31));
    for (const value of [null, '', '@1688169599', '2023-12-31', 'Sun, 31 Feb 2023 00:00:00 GMT', 'tomorrow'])
      expect(parseSunset(value)).toBeUndefined();
  });
});

describe('deprecationOf', () => {
  it('either header is a notice; neither (or neither readable) is none', () => {
    const of = (init: Record<string, string>) => deprecationOf(new Headers(init));
    expect(of({ deprecation: '@1688169599', sunset: 'Sun, 31 Dec 2023 00:00:00 GMT' })).toEqual({
      deprecatedAt: JUNE_2023,
      sunsetAt: Date.UTC(2023, 11, 31),
    });
    expect(of({ deprecation: 'true' })).toEqual({ deprecatedAt: undefined, sunsetAt: undefined });
    expect(of({ sunset: 'Sun, 31 Dec 2023 00:00:00 GMT' })).toEqual({
      deprecatedAt: undefined,
      sunsetAt: Date.UTC(2023, 11, 31),
    });
    expect(of({})).toBeUndefined();
    expect(of({ deprecation: 'soon', sunset: 'later' })).toBeUndefined();
  });
});

describe('parseImfFixdate', () => {
  it('reads IMF-fixdate only, and only a date that exists', () => {
    expect(parseImfFixdate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    expect(parseImfFixdate('Mon, 06 Nov 1994 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    for (const value of [
      'Sunday, 06-Nov-94 08:49:37 GMT',
      'Sun, 06 Nov 0094 08:49:37 GMT',
      '1.5',
      'Sun, 06 Nov 1994 24:00:00 GMT',
    ])
      expect(parseImfFixdate(value)).toBeUndefined();
  });
});

describe('Deprecations: each notice once', () => {
  it('deprecated once per method and path, with the dates when known; nothing without the headers', () => {
    const deprecations = new Deprecations();
    const headers = new Headers({ deprecation: '@1688169599', sunset: 'Sun, 31 Dec 2023 00:00:00 GMT' });
    expect(
      deprecations.answered('GET', 'https://api.test/v2/calls/recent?limit=1', new Headers(), 'req_1'),
    ).toBeUndefined();
    expect(
      deprecations.answered('GET', 'https://api.test/v2/calls/recent?limit=1', headers, 'req_1'),
    ).toEqual({
      code: 'deprecated',
      message:
        'GET /v2/calls/recent is deprecated as of 2023-06-30T23:59:59.000Z and will stop answering after 2023-12-31T00:00:00.000Z, the service says (Deprecation/Sunset headers)',
      method: 'GET',
      path: '/v2/calls/recent',
      deprecation: '2023-06-30T23:59:59.000Z',
      sunset: '2023-12-31T00:00:00.000Z',
      requestId: 'req_1',
    });
    expect(
      deprecations.answered('GET', 'https://api.test/v2/calls/recent?limit=2', headers, 'req_1'),
    ).toBeUndefined();
    expect(
      deprecations.answered(
        'POST',
        'https://api.test/v2/calls/recent',
        new Headers({ deprecation: 'true' }),
        'req_2',
      ),
    ).toEqual({
      code: 'deprecated',
      message: 'POST /v2/calls/recent is deprecated, the service says (Deprecation/Sunset headers)',
      method: 'POST',
      path: '/v2/calls/recent',
      deprecation: undefined,
      sunset: undefined,
      requestId: 'req_2',
    });
  });

  it('remembers a bounded number of paths', () => {
    const deprecations = new Deprecations();
    const headers = new Headers({ deprecation: 'true' });
    const said = Array.from({ length: 300 }, (_, i) =>
      deprecations.answered('GET', `https://h/v1/users/u${i}`, headers, 'req_1'),
    );
    expect(said.filter(Boolean)).toHaveLength(256);
  });
});

describe("a client's deprecation warnings", () => {
  it('v1_deprecated at its first v1 call only, deprecated once per method and path: both events, both logged', async () => {
    const notice = { deprecation: '@1703980800', sunset: 'Thu, 31 Dec 2026 23:59:59 GMT' };
    server.use(
      http.get(`${BASE_V1}/v1/users`, () =>
        HttpResponse.json(usersPageBody(['u1'], { total: 1, page: 1, per_page: 20, pages: 1 }), {
          headers: notice,
        }),
      ),
    );
    const logged: string[] = [];
    const keep = (line: string) => logged.push(line);
    const logger = { debug: keep, info: keep, warn: keep, error: keep };
    const client = testClient({ logger, logLevel: 'warn' });
    const warnings: WarningEvent[] = [];
    client.on('warning', (warning) => warnings.push(warning));
    await client.users.list();
    await client.users.list();
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'v1_deprecated', deprecatedOn: '2023-12-31' }),
      expect.objectContaining({
        code: 'deprecated',
        method: 'GET',
        path: '/v1/users',
        deprecation: '2023-12-31T00:00:00.000Z',
        sunset: '2026-12-31T23:59:59.000Z',
      }),
    ]);
    // Another client says its own.
    const other: WarningEvent[] = [];
    const second = testClient({ logger, logLevel: 'off' });
    second.on('warning', (warning) => other.push(warning));
    await second.users.list();
    expect(other.map((warning) => warning.code)).toEqual(['v1_deprecated', 'deprecated']);
    await vi.dynamicImportSettled();
    expect(logged).toEqual([
      expect.stringMatching(/^\[telephony-sdk\] warning v1_deprecated: API v1 /),
      expect.stringMatching(
        /^\[telephony-sdk\] warning deprecated: GET \/v1\/users is deprecated as of 2023-12-31/,
      ),
    ]);
  });
});
