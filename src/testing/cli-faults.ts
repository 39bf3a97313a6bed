import { describeFault, FAULT_KINDS, type FaultInit, type FaultKind } from './faults.js';
import { consoleWorldOf, type Sandbox } from './sandbox.js';

export const FAULTS_HELP = `  fault [<method>] <path> <kind> [<times>] [status=<n>] [retryAfter=<s>] [delayMs=<ms>]
      makes matching requests fail until cleared (or <times> of them), e.g.
      fault POST /v2/calls drop_after 1 · fault /v2/oauth/token status 1 status=503
      kinds: status (default 500), rate_limit (429, retryAfter default 1), drop_before,
      drop_after (does it, then drops the answer), delay (delayMs), hang; * is one path segment
  faults
      the faults in force, with their hits
  faults clear [<fault id>]
      removes every fault, or one`;

const OPTIONS = new Set(['status', 'retryAfter', 'delayMs']);

/** `fault …`: the init its words give; throws an Error naming what is wrong. */
function faultInit(args: readonly string[]): FaultInit {
  const words = [...args];
  const method = words[0]?.startsWith('/') ? undefined : words.shift();
  const [path, kind, ...rest] = words;
  if (path === undefined || kind === undefined) {
    throw new Error(
      'usage: fault [<method>] <path> <kind> [<times>] [status=<n>] [retryAfter=<s>] [delayMs=<ms>]',
    );
  }
  if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
    throw new Error(`unknown kind "${kind}"; use ${FAULT_KINDS.join(', ')}`);
  }
  const init: FaultInit = { path, kind: kind as FaultKind, ...(method === undefined ? {} : { method }) };
  for (const word of rest) {
    const [name = '', value, extra] = word.split('=');
    if (value === undefined && /^\d+$/.test(name)) init.times = Number(name);
    else if (OPTIONS.has(name) && value !== undefined && extra === undefined && /^\d+$/.test(value)) {
      init[name as 'status' | 'retryAfter' | 'delayMs'] = Number(value);
    } else throw new Error(`unknown argument "${word}": a number of times, status=, retryAfter= or delayMs=`);
  }
  return init;
}

/** Runs `fault …` or `faults …` (`command`) and answers what to print; throws on a mistake. */
export function faultCommand(sandbox: Sandbox, command: 'fault' | 'faults', args: readonly string[]): string {
  if (command === 'fault') {
    const { id } = sandbox.injectFault(faultInit(args));
    const added = sandbox.faults.find((fault) => fault.id === id);
    return added ? describeFault(added) : id;
  }
  if (args.length === 0) {
    const lines = sandbox.faults.map(describeFault);
    return lines.length === 0 ? 'no faults in force' : lines.join('\n');
  }
  const [verb, id, ...rest] = args;
  if (verb !== 'clear' || rest.length > 0) throw new Error('usage: faults | faults clear [<fault id>]');
  if (id === undefined) {
    const count = sandbox.faults.length;
    sandbox.clearFaults();
    return `cleared ${count} ${count === 1 ? 'fault' : 'faults'}`;
  }
  if (!consoleWorldOf(sandbox).faults.clear(id)) throw new Error(`no fault ${id} in force`);
  return `cleared ${id}`;
}
