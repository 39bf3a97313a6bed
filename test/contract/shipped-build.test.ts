/**
 * The project this file runs in tests the files it names (vitest.config.ts, test/builds.ts): `src/`
 * for the unit project, a shipped build's files for each build project. Seen from the stack of an
 * error the SDK throws.
 */
import { TelephonyClient, ValidationError } from 'telephony-sdk';
import { expect, it } from 'vitest';
import { SHIPPED_BUILDS } from '../builds.js';

const build = SHIPPED_BUILDS.find(({ name }) => name === process.env.TELEPHONY_SDK_BUILD);

it('the SDK under test is the one this project names', () => {
  let thrown: unknown;
  try {
    new TelephonyClient({ baseUrl: 1 as never });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ValidationError);
  // The frame that made the error: the SDK's `invalid` helper, in whatever file holds it.
  const frame = (thrown as Error).stack?.split('\n').find((line) => line.includes(' at invalid ')) ?? '';
  const file = /\(?(?:file:\/\/)?([^()]+?):\d+:\d+\)?$/.exec(frame)?.[1] ?? '';
  if (build === undefined) {
    expect(file).toMatch(/[/\\]src[/\\]core[/\\]errors\.ts$/);
    return;
  }
  const dir = build.entries['telephony-sdk'].replace(/[/\\][^/\\]+$/, '');
  expect(file.endsWith(build.format === 'cjs' ? '.cjs' : '.js')).toBe(true);
  expect(file.slice(0, file.lastIndexOf('/'))).toMatch(new RegExp(`[/\\\\]${dir.replace('/', '[/\\\\]')}$`));
});
