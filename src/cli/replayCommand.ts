// `subchats replay FILE [--json]`: rebuilds the session tree of a transcript and prints it.
import { readFileSync } from 'node:fs';
import { SessionStore } from '../store/sessionStore';
import { formatReplayText, replayText, toReplaySnapshot } from '../store/replayReport';

export function runReplay(args: string[], out: (text: string) => void, err: (text: string) => void): number {
  const json = args.includes('--json');
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length !== 1) {
    err('usage: subchats replay FILE [--json]');
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(files[0]!, 'utf8');
  } catch (error) {
    err(`subchats replay: cannot read ${files[0]}: ${(error as Error).message}`);
    return 1;
  }
  const store = new SessionStore({ now: () => 0 });
  replayText(store, text);
  const snapshot = toReplaySnapshot(store);
  out(json ? JSON.stringify(snapshot, null, 2) : formatReplayText(snapshot));
  return 0;
}
