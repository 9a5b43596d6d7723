// The dialect registry: every agent dialect the store reads, one plug-in each (the contract is dialect.ts).
// A new dialect is its plug-in file and one line here. Where two switched-on plug-ins answer the same question
// (a lifecycle line, an update's owner), the earlier one here goes first.
import { copilotDialect } from './copilotPlugin';
import { cursorDialect } from './cursorPlugin';
import type { DialectFactory } from './dialect';
import { devinDialect } from './devinPlugin';
import { ompDialect } from './ompPlugin';
import { opencodeDialect } from './opencodePlugin';
import { qwenDialect } from './qwenPlugin';
import { sudocodeDialect } from './sudocodePlugin';

export const DIALECTS: readonly DialectFactory[] = [
  copilotDialect, // GitHub Copilot CLI: sessionEvent notifications, agentId tags, text routed by its events
  opencodeDialect, // opencode: its opt-in child session stream
  qwenDialect, // qwen-code: _qwencode/end_turn, background task reports
  devinDialect, // Devin CLI: subagent lifecycle lines on the parent session
  sudocodeDialect, // sudocode: agentSpawn on the spawning call
  cursorDialect, // Cursor CLI: cursor/task
  ompDialect, // oh-my-pi: the _omp/agents roster and transcripts
];
