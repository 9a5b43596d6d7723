// The qwen-code dialect plug-in: a turn the agent started itself (a background notification) ends with its
// `_qwencode/end_turn`, not a prompt response; a background subagent's end comes as a message marked
// `_meta.backgroundTask` (read in subagentDialects.ts). On from the first of either.
import { endBackgroundTask } from '../reducers/toolCalls';
import { endAgentStartedTurn } from '../reducers/turns';
import { backgroundTaskReport } from '../subagentDialects';
import { asString } from '../wireMessage';
import type { Dialect, DialectHost } from './dialect';

const QWEN_END_TURN = '_qwencode/end_turn';

export function qwenDialect({ parts }: DialectHost): Dialect {
  return {
    notifications: {
      [QWEN_END_TURN]: (params) => {
        const session = parts.core.session(asString(params['sessionId']) ?? '');
        if (session) endAgentStartedTurn(parts, session, asString(params['reason']) ?? 'end_turn');
      },
    },
    metaKeys: ['backgroundTask'],
    afterUpdate(_target, update) {
      const background = backgroundTaskReport(update);
      if (background) endBackgroundTask(parts, background.taskId, background.status);
    },
  };
}
