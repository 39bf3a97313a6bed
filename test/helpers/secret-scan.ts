import { expect } from 'vitest';
import { SECRETS } from './canary.js';

const base64url = (text: string) => btoa(text).replaceAll('+', '-').replaceAll('/', '_');
const html = (text: string) =>
  text.replace(/[&<>"'/=+]/g, (char) => `&#x${char.charCodeAt(0).toString(16)};`);

/**
 * Each form of `secret` that API.md ("Answers the SDK does not trust") says never appears: raw,
 * percent-encoded in either case, JSON-escaped, HTML-escaped, base64 and base64url (unpadded).
 */
export function secretForms(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  return [
    ...new Set([
      secret,
      percent,
      percent.replace(/%[\dA-F]{2}/g, (hex) => hex.toLowerCase()),
      JSON.stringify(secret).slice(1, -1).replaceAll('/', '\\/'),
      html(secret),
      btoa(secret).replace(/=+$/, ''),
      base64url(secret).replace(/=+$/, ''),
    ]),
  ];
}

/** Fails when any text holds any form of any secret (the canary credentials by default). */
export function expectNoSecretIn(texts: readonly string[], secrets: readonly string[] = SECRETS): void {
  const forms = secrets.flatMap(secretForms);
  for (const text of texts)
    for (const form of forms) expect(text, `a logged line holds a secret (${form})`).not.toContain(form);
}

/** Every line logged by the suite's clients (testClient), scanned and emptied after each test. */
const suiteLines: string[] = [];
const keep = (line: string) => {
  suiteLines.push(line);
};

/** The logger testClient gives every client: debug and up, each line kept for the scan. */
export const suiteLogger = { debug: keep, info: keep, warn: keep, error: keep };

/** Scans the lines logged since the last scan for every form of the canary credentials; how many it read. */
export function scanSuiteLines(): number {
  const lines = suiteLines.splice(0);
  expectNoSecretIn(lines);
  return lines.length;
}
