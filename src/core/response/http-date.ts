const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// RFC 9110 §5.6.7 IMF-fixdate, the only HTTP-date form a sender may generate: `Sun, 06 Nov 1994
// 08:49:37 GMT`. The weekday is not compared (the date decides), as the RFC lets a recipient do.
const IMF_FIXDATE =
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/**
 * An HTTP-date (IMF-fixdate) as epoch milliseconds; `undefined` in any other form or for a date that
 * does not exist (31 Feb, 24:00). Read for `Retry-After` and `Sunset`.
 */
export function parseImfFixdate(text: string): number | undefined {
  const match = IMF_FIXDATE.exec(text);
  if (match === null) return undefined;
  const month = MONTHS.indexOf(match[2] as string);
  const day = Number(match[1]);
  const year = Number(match[3]);
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = Number(match[6]);
  const exists =
    month >= 0 &&
    // `Date.UTC` reads years 0–99 as 1900–1999: not the date the header names.
    year >= 100 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59;
  return exists ? Date.UTC(year, month, day, hour, minute, second) : undefined;
}

/** Days in `month` (0 for January) of `year`, leap years counted. */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}
