import { describe, expect, it } from 'vitest';
import { redact } from '../../../src/core/redact.js';

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
