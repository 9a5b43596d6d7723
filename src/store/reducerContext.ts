// The parts every reducer works with: records and their clock, the tree, and the open requests.
import type { RequestLedger } from './requestLedger';
import type { SessionTree } from './sessionTree';
import type { RecordKeeper } from './recordKeeper';
import type { SpawnHooks } from './subagentSpawn';
import type { TextSpill } from './textSpill';

export interface ReducerContext {
  readonly core: RecordKeeper;
  readonly tree: SessionTree;
  readonly ledger: RequestLedger;
  /** Roots whose history `session/load` is replaying (replayed child controls are stale). */
  readonly replaying: Set<string>;
  /** Background subagents by the id their agent reports them under (qwen agentId, opencode jobId) → session id. */
  readonly backgroundTasks: Map<string, string>;
  /** What the connection's dialects make of a subagent launch the tool call reducer detected (dialects/). */
  readonly spawns: SpawnHooks;
  /** The ACP major version this connection speaks (from the initialize response; 1 until then). */
  readonly protocol: { version: 1 | 2 };
  /** v2 agent terminals: the undecoded tail of output bytes split inside a UTF-8 character, per terminal. */
  readonly terminalDecoders: Map<string, StreamingDecoder>;
  /** Where the heads of long agent texts go past the held-text bound (absent without a vault: all stay in memory). */
  readonly spill: TextSpill | undefined;
}

/** A UTF-8 decoder that keeps an incomplete character for the next call (`TextDecoder` with `stream`). */
interface StreamingDecoder {
  decode(input: Uint8Array, options: { stream: boolean }): string;
}
