/** Quote pairs understood by the argument parser (ASCII and the “smart” quotes phones type). */
const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’', '«': '»' };

/**
 * Splits command arguments like a shell, minus the surprises: whitespace separates words, a quoted
 * part ("…", '…', “…”, ‘…’, «…») keeps its spaces, a backslash escapes the next character inside
 * quotes. An unclosed quote runs to the end of the text. `say "hello world" 3` → `['hello world', '3']`.
 */
export function parseArgs(text: string): string[] {
  const args: string[] = [];
  let current = '';
  let inWord = false;
  let closing: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (closing !== undefined) {
      if (ch === '\\' && i + 1 < text.length) {
        const following = text[i + 1];
        if (following === closing || following === '\\') {
          current += following;
          i += 1;
          continue;
        }
      }
      if (ch === closing) closing = undefined;
      else current += ch;
      continue;
    }
    if (/\s/.test(ch)) {
      if (inWord) args.push(current);
      current = '';
      inWord = false;
      continue;
    }
    const close = QUOTES[ch];
    if (close !== undefined) {
      closing = close;
      inWord = true;
      continue;
    }
    current += ch;
    inWord = true;
  }
  if (inWord) args.push(current);
  return args;
}

export interface ParsedCommand {
  /** Lower-case name. */
  name: string;
  /** As typed. */
  invokedAs: string;
  rawArgs: string;
  args: string[];
}

/**
 * Reads `<prefix><name> args...` from a message body; undefined when the body is not a command
 * (no prefix, or whitespace right after it).
 */
export function parseCommand(body: string, prefix: string): ParsedCommand | undefined {
  const text = body.trimStart();
  if (!text.startsWith(prefix)) return undefined;
  const rest = text.slice(prefix.length);
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(rest);
  if (!match) return undefined;
  const invokedAs = match[1];
  const rawArgs = (match[2] ?? '').trim();
  return { name: invokedAs.toLowerCase(), invokedAs, rawArgs, args: parseArgs(rawArgs) };
}
