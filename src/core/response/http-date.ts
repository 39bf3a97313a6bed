// RFC 9110 §5.6.7 IMF-fixdate, the only HTTP-date form a sender may generate. `Date.parse` alone is
// not enough: V8 reads almost anything as a date (`1.5` is 1 January 2001).
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * An HTTP-date (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`) as milliseconds since the epoch;
 * `undefined` in any other form. Used for `Retry-After` and `Sunset`.
 */
export function parseHttpDate(text: string): number | undefined {
  if (!IMF_FIXDATE.test(text)) return undefined;
  // A date is one only if it reads back as written (`toUTCString` writes IMF-fixdate; the weekday is
  // not compared): not one that rolls over (31 Feb, 24:00), names no month, or is in years 0000–0099,
  // which `Date.parse` moves to 1950–2049.
  const date = Date.parse(text);
  return new Date(date).toUTCString().slice(4) === text.slice(4) ? date : undefined;
}
