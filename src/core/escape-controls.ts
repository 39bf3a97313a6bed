/**
 * Control characters an answer may carry (CR, LF, ESC, the rest of C0 and C1, DEL) shown escaped in a
 * message: an upstream cannot forge a log line or a terminal sequence.
 */
export function escapeControls(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => CONTROL_NAMES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
const CONTROL_NAMES: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };
