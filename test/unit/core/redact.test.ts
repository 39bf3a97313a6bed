import { describe, expect, it } from 'vitest';
import { redactor } from '../../../src/core/response/redact.js';
import { CANARY, SECRETS } from '../../helpers/client.js';

/** `value` as an error would keep it, with `secrets` replaced. */
const redact = <T>(value: T, secrets: readonly string[]) => redactor(secrets)(value) as T;

describe('redact', () => {
  it('replaces a credential wherever it stands as a whole: after a scheme, in a form, in JSON, in keys', () => {
    expect(redact('Authorization: Bearer tok_123', ['tok_123'])).toBe('Authorization: Bearer [redacted]');
    expect(redact('grant_type=x&client_secret=s3cr3t&scope=', ['s3cr3t'])).toBe(
      'grant_type=x&client_secret=[redacted]&scope=',
    );
    expect(redact({ echo: '"tok_123"', tok_123: ['tok_123', 1] }, ['tok_123'])).toEqual({
      echo: '"[redacted]"',
      '[redacted]': ['[redacted]', 1],
    });
    expect(redact('tok_123 and tok_123.', ['tok_123'])).toBe('[redacted] and [redacted].');
  });

  it('leaves a match glued to a letter, digit or _ alone, so a placeholder secret keeps codes intact', () => {
    expect(redact({ code: 'invalid_parameter' }, ['parameter'])).toEqual({ code: 'invalid_parameter' });
    expect(redact('forbidden', ['b'])).toBe('forbidden');
    expect(redact('the test number is wrong', ['test'])).toBe('the [redacted] number is wrong');
    expect(redact('a b c', ['b'])).toBe('a [redacted] c');
  });

  it('a secret whose edge is not a word character is replaced even when glued', () => {
    expect(redact('x+abc!y', ['+abc!'])).toBe('x[redacted]y');
    expect(redact('key=%2Babc', ['+abc'])).toBe('key=[redacted]');
  });

  it('a credential of real length is replaced anywhere, and after a %XX escape whatever its length', () => {
    const token = 'tok_1234567890abcdef';
    expect(redact(`Authorization%3A%20Bearer%20${token}`, [token])).toBe(
      'Authorization%3A%20Bearer%20[redacted]',
    );
    expect(redact(`client_secret%3D${token}%26x`, [token])).toBe('client_secret%3D[redacted]%26x');
    expect(redact(`Bearer${token}x`, [token])).toBe('Bearer[redacted]x');
    expect(redact('body%3Dshort1%26', ['short1'])).toBe('body%3D[redacted]%26');
  });

  it('an empty credential changes nothing (and does not loop)', () => {
    expect(redact('text', [''])).toBe('text');
    expect(redact({ a: 1 }, [])).toEqual({ a: 1 });
  });
});

describe('redact: encodings of a credential that an answer may echo', () => {
  const token = 'tok/ab+cd=ef~gh 1234567890';
  const secret = CANARY.clientSecret;
  const base64url = (text: string) => btoa(text).replaceAll('+', '-').replaceAll('/', '_');

  it('lower-case percent escapes, as a proxy may write them (encodeURIComponent writes upper case)', () => {
    const percent = encodeURIComponent(token).replace(/%[\dA-F]{2}/g, (e) => e.toLowerCase());
    const form = new URLSearchParams({ s: token })
      .toString()
      .slice(2)
      .replace(/%[\dA-F]{2}/g, (e) => e.toLowerCase());
    expect(percent).toContain('%2f');
    expect(redact(`GET /x?access_token=${percent}&y=1`, [token])).toBe('GET /x?access_token=[redacted]&y=1');
    expect(redact({ echo: `client_secret=${form}` }, [token])).toEqual({ echo: 'client_secret=[redacted]' });
  });

  it('a JSON-escaped forward slash or quote, in a body kept as text', () => {
    expect(redact('{"token":"tok\\/ab+cd=ef~gh 1234567890"}', [token])).toBe('{"token":"[redacted]"}');
    const quoted = 'q"uote\\d/1234567890123';
    expect(redact(`<pre>{"k":${JSON.stringify(quoted).replaceAll('/', '\\/')}}</pre>`, [quoted])).toBe(
      '<pre>{"k":"[redacted]"}</pre>',
    );
  });

  it('base64 and base64url of the credential alone, padded or not (the padding, which hides nothing, stays)', () => {
    expect(redact(`x-echo: ${btoa(token)};`, [token])).toBe('x-echo: [redacted]=;');
    expect(redact(`<${btoa('pw')}> <${base64url('pw?>')}>`, ['pw', 'pw?>'])).toBe(
      '<[redacted]=> <[redacted]==>',
    );
    expect(redact({ 'x-echo': base64url(token).replace(/=+$/, '') }, [token])).toEqual({
      'x-echo': '[redacted]',
    });
    expect(redact({ [btoa(secret)]: 1 }, [secret])).toEqual({ '[redacted]=': 1 });
  });

  it('an HTTP Basic echo of id:secret, whatever the id, and the secret at any offset of a base64 blob', () => {
    const basic = `Basic ${btoa(`${CANARY.clientId}:${secret}`)}`;
    const out = redact({ authorization: basic }, [secret]).authorization;
    expect(out).toMatch(/^Basic [\w+/]{0,30}\[redacted\][\w+/=]{0,4}$/);
    for (const prefix of ['', 'a', 'ab', 'abc', '{"client_secret":"']) {
      for (const encode of [btoa, base64url]) {
        const blob = encode(`${prefix}${secret}"}`);
        const left = redact(`jwt=${blob}.sig`, [secret]);
        expect(left).toMatch(/^jwt=[\w+/-]*\[redacted\][\w+/=-]{0,5}\.sig$/);
        // What is left around the mark cannot hold more than a few bits of the secret.
        expect(left.length - '[redacted]'.length).toBeLessThanOrEqual(
          `jwt=.sig`.length + encode(prefix).length + 5,
        );
      }
    }
  });

  it('a composite credential listed as a secret of its own: Basic of a short placeholder id:secret', () => {
    expect(redact(`Authorization: Basic ${btoa('id:s3cr3t')}`, ['id:s3cr3t'])).toBe(
      'Authorization: Basic [redacted]',
    );
    // A short secret's base64 is replaced only as a whole word, like the secret itself.
    expect(redact(`x${btoa('s3cr3t')}y`, ['s3cr3t'])).toBe(`x${btoa('s3cr3t')}y`);
  });

  it('stays linear in the size of the answer', () => {
    const body = `${'sk_CANARY_SECRET_9f3a1 %2f tok\\/ab '.repeat(30_000)}${secret}`;
    const started = performance.now();
    const out = redact({ body, headers: { a: body } }, [...SECRETS, token]);
    expect(out.body.endsWith('[redacted]')).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('redact: escaped echoes, each character in its own form', () => {
  const token = 'tok/ab+cd=ef_gh.1234567890';
  const unicode = (text: string, all = false) =>
    [...text]
      .map((c) => (all || !/[\w]/.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
      .join('');

  it('JSON \\uXXXX escapes, of some characters or all, in either case', () => {
    expect(redact(`{"echo":"${unicode(token)}"}`, [token])).toBe('{"echo":"[redacted]"}');
    expect(redact(`x ${unicode(token, true)} y`, [token])).toBe('x [redacted] y');
    const upper = unicode(token).replace(/\\u(\w{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`);
    expect(upper).toContain('\\u002F');
    expect(redact(`x ${upper} y`, [token])).toBe('x [redacted] y');
  });

  it('HTML references: hexadecimal, decimal, named, with or without leading zeros', () => {
    const hex = token.replace(/[^\w]/g, (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`);
    const dec = token.replace(/[^\w]/g, (c) => `&#${c.charCodeAt(0)};`);
    const named = token
      .replaceAll('/', '&sol;')
      .replaceAll('+', '&plus;')
      .replaceAll('=', '&equals;')
      .replaceAll('_', '&lowbar;')
      .replaceAll('.', '&period;');
    for (const form of [hex, dec, named, hex.toLowerCase().replace('&#x', '&#X00')])
      expect(redact(`<p>${form}</p>`, [token])).toBe('<p>[redacted]</p>');
    expect(redact('<i>&#97;&#x62;c_1</i>', ['abc_1'])).toBe('<i>[redacted]</i>');
  });

  it('forms mixed in one echo, and in the base64 of a credential', () => {
    expect(redact(`tok%2Fab&#43;cd\\u003def_gh.1234567890`, [token])).toBe('[redacted]');
    const basic = btoa(`id:${CANARY.clientSecret}>`);
    expect(basic).toMatch(/[+/]/);
    const escaped = basic.replaceAll('/', '&#x2F;').replaceAll('+', '%2b');
    expect(redact(`Basic ${escaped}`, [CANARY.clientSecret])).toMatch(
      /^Basic [\w]*\[redacted\][\w=&#;%]{0,12}$/,
    );
  });

  it('stays linear on text made of the escapes’ first characters', () => {
    const hostile = `${'&#x'.repeat(200_000)}${'%2'.repeat(200_000)}${'\\u00'.repeat(200_000)}`;
    const started = performance.now();
    expect(redact(hostile, [...SECRETS, token])).toBe(hostile);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
