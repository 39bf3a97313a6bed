import { FAULTS_HELP, faultCommand } from './cli-faults.js';
import { rateLines } from './rate-report.js';
import type { Sandbox } from './sandbox.js';
import { e164 } from './validate.js';

export const COMMANDS_HELP = `Commands, typed while the sandbox runs:
  incoming <number> [answered|missed|voicemail]
      an inbound call from <number> arrives ringing (call.incoming); with an outcome it is then
      answered (call.answered), missed (call.missed) or sent to voicemail (call.missed, voicemail.new)
  answer <call id> | miss <call id> | voicemail <call id>
      settles a call left ringing
  rate
      the rate report: per application and API key, its plan, requests counted and answered 429,
      the largest 60 s window and tokens issued (also GET /_console/rate, as JSON)
${FAULTS_HELP}
  help
      shows these commands`;

type Settle = 'answerCall' | 'missCall' | 'voicemailCall';

/** The outcomes `incoming` takes and the commands that settle a ringing call, by word typed. */
const OUTCOMES = new Map<string, Settle>([
  ['answered', 'answerCall'],
  ['missed', 'missCall'],
  ['voicemail', 'voicemailCall'],
]);
const SETTLERS = new Map<string, Settle>([
  ['answer', 'answerCall'],
  ['miss', 'missCall'],
  ['voicemail', 'voicemailCall'],
]);

/**
 * Runs one line typed at the CLI against the sandbox and answers what to print: what happened to
 * the call (id, numbers, statuses), or a message starting `error:` (the sandbox keeps running).
 */
function runCommand(sandbox: Sandbox, line: string): string {
  const [command = '', ...args] = line.trim().split(/\s+/);
  try {
    if (command === '') return '';
    if (command === 'help') return COMMANDS_HELP;
    if (command === 'rate') return rateLines(sandbox.rateReport());
    if (command === 'incoming') return incoming(sandbox, args);
    if (command === 'fault' || command === 'faults') return faultCommand(sandbox, command, args);
    const settle = SETTLERS.get(command);
    if (settle && args.length === 1) {
      const call = sandbox[settle](args[0] ?? '');
      return `${call.id}: ringing → ${call.status}`;
    }
    if (settle) return `error: usage: ${command} <call id>`;
    return `error: unknown command "${command}"; type help for the commands`;
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function incoming(sandbox: Sandbox, args: string[]): string {
  const [number, outcome, ...rest] = args;
  if (number === undefined || rest.length > 0) {
    return 'error: usage: incoming <number> [answered|missed|voicemail]';
  }
  const settle = outcome === undefined ? undefined : OUTCOMES.get(outcome);
  if (outcome !== undefined && !settle) {
    return `error: unknown outcome "${outcome}"; use answered, missed or voicemail`;
  }
  const call = sandbox.simulateIncomingCall({ from: e164(number, 'the number') });
  const line = `${call.id} from ${call.from.number} to ${call.to.number}: ringing`;
  if (!settle) return `${line} (settle it with answer, miss or voicemail ${call.id})`;
  return `${line} → ${sandbox[settle](call.id).status}`;
}

/**
 * Runs each line of `input` (the CLI's stdin) as a command: results on stdout, errors on stderr.
 * The end of input only stops reading: the sandbox keeps serving until it is stopped.
 */
export async function readCommands(sandbox: Sandbox, input: NodeJS.ReadableStream): Promise<void> {
  const { createInterface } = await import('node:readline');
  createInterface({ input, terminal: false }).on('line', (line) => {
    const answer = runCommand(sandbox, line);
    if (answer.startsWith('error:')) console.error(answer);
    else if (answer !== '') console.log(answer);
  });
}
