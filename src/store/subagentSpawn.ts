// What a subagent launch is, as the dialect readers report it (subagentDialects.ts, dialects/detect.ts) and the
// tool call reducer and the dialects act on it. A type only, shared without the readers importing each other.
import type { SessionLink } from './model';

export interface SubagentSpawn {
  readonly link: SessionLink;
  /** A real child session id on the wire; absent when the child is reconstructed from the tool call (virtual). */
  readonly childSessionId?: string;
  readonly subagentType?: string;
  /** The launch says the child runs in the background (draft `subagent.runMode: "background"`). */
  readonly background?: boolean;
}
