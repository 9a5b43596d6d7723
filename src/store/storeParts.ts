// The parts every reducer works with: records and their clock, the tree, and the open requests.
import type { CopilotState } from './reducers/copilot';
import type { RequestLedger } from './requestLedger';
import type { SessionTree } from './sessionTree';
import type { StoreCore } from './storeCore';

export interface StoreParts {
  readonly core: StoreCore;
  readonly tree: SessionTree;
  readonly ledger: RequestLedger;
  /** Roots whose history `session/load` is replaying (replayed child controls are stale). */
  readonly replaying: Set<string>;
  /** Background subagents by the id their agent reports them under (qwen agentId, opencode jobId) → session id. */
  readonly backgroundTasks: Map<string, string>;
  readonly copilot: CopilotState;
  /** opencode streams its subagents as `opencode/session/child_update` (advertised, or seen). */
  readonly opencode: { childUpdates: boolean };
}
