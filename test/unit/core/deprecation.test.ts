import { describe, expect, it } from 'vitest';
import {
  Deprecations,
  deprecationOf,
  parseDeprecation,
  parseSunset,
} from '../../../src/core/response/deprecation.js';
import { parseImfFixdate } from '../../../src/core/response/http-date.js';

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

describe('Deprecations: each warning once', () => {
  it('v1_deprecated at the first v1 call only', () => {
    const deprecations = new Deprecations();
    expect(deprecations.v1Call('req_1')).toMatchObject({ code: 'v1_deprecated', deprecatedOn: '2023-12-31' });
    expect(deprecations.v1Call('req_1')).toBeUndefined();
    expect(new Deprecations().v1Call('req_1')).toMatchObject({ code: 'v1_deprecated' });
  });

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
