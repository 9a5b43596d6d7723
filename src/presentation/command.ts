// A command an agent's tool call holds, as one line of text: a shell line as the agent wrote it; an argv
// array with every argument that is not a plain word in quotes, so where each argument ends stays visible.
import type { ShownCommand } from '../protocol/transcript';

/** A word a shell takes as it is: no quotes, no expansion, no operators, no spaces. */
export function isPlainWord(word: string): boolean {
  return /^[\w@%+=:,./-]+$/.test(word);
}

export function commandText(command: ShownCommand): string {
  if (typeof command === 'string') return command;
  return command.map((part) => (isPlainWord(part) ? part : JSON.stringify(part))).join(' ');
}
