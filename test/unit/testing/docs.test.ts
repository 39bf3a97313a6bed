import { readFileSync } from 'node:fs';
import type { IncomingCallInit } from 'telephony-sdk/testing';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(new URL('../../../docs/sandbox.md', import.meta.url), 'utf8');

// Every option of IncomingCallInit: the compiler refuses this record if one is missing or unknown.
const INCOMING_CALL_OPTIONS: Record<keyof IncomingCallInit, true> = {
  from: true,
  fromName: true,
  to: true,
  toName: true,
  userId: true,
  contactId: true,
  customData: true,
};

describe('docs/sandbox.md', () => {
  it('the simulateIncomingCall row of the helpers table names every option', () => {
    const row = doc.split('\n').find((line) => line.startsWith('| `sandbox.simulateIncomingCall('));
    expect(row).toBeDefined();
    const signature = /simulateIncomingCall\(\{([^}]*)\}\)/.exec(row ?? '')?.[1] ?? '';
    const named = signature.split(',').map((option) => option.trim().replace(/\?$/, ''));
    expect(named.sort()).toEqual(Object.keys(INCOMING_CALL_OPTIONS).sort());
    // Each option is also explained after the signature, in backticks.
    const explanation = (row ?? '').slice((row ?? '').indexOf('})') + 2);
    for (const option of Object.keys(INCOMING_CALL_OPTIONS)) expect(explanation).toContain(`\`${option}\``);
  });

  it('says what the sandbox does with `fields`: accepted and ignored, not 404', () => {
    const notImplemented = doc.slice(doc.indexOf('- **Not implemented**'));
    expect(notImplemented.slice(0, notImplemented.indexOf('\n- '))).not.toContain('`fields`');
    expect(doc).toMatch(/`fields`[^\n]*accepted and ignored/);
  });
});
