// What the store keeps per session beside its record (records stay plain JSON): the lookups of its entries and
// the client's copies of what it sent, waiting for the agent's echo. Types and the empty index only, so the
// store core and the reducers that fill these share them without importing each other.
import type { Entry, MessageEntry, PlanEntryItem, SessionMessageEntry, ToolCallEntry } from './model';

/** Per-session lookups that are not part of the record (so records stay plain JSON). */
export interface SessionIndex {
  readonly messages: Map<string, MessageEntry>;
  readonly sessionMessages: Map<string, SessionMessageEntry>;
  readonly toolEntries: Map<string, ToolCallEntry>;
  /** The plans shown and not removed, by planId (v1's one plan under ''). */
  readonly plans: Map<string, PlanEntryItem>;
  last?: Entry;
  /** The last message was marked to stand on its own: the next chunk starts a new one. */
  lastDiscrete?: boolean;
  /** A root's first prompt names it until the agent gives it a title (never a message the agent added). */
  firstUserMessage?: MessageEntry;
  /** v2: the prompts the client sent, in order, until each is acknowledged and echoed (promptEchoes.ts). */
  readonly promptCopies: PromptCopy[];
  /** v2: echoes of ids no acknowledgement has named yet, held (not shown) while prompts of ours wait. */
  readonly heldEchoes: Map<string, MessageEntry>;
  /** v2: prompts acknowledged without a messageId (an older draft's `{}`): the next unknown echo is the oldest. */
  readonly unnamedCopies: MessageEntry[];
  /** v2 compactions (by compactionId) whose end was already shown. */
  readonly compactionsReported: Set<string>;
  /** Messages the user steered into a turn that have not reached a final status (steering.ts). */
  readonly openSteers: SteerCopy[];
  /** A steer the agent answered `promptRequired`: the session/prompt that follows with its words reuses its entry. */
  promptedSteer?: SteerCopy;
  /** On a subagent: relays for it its parent has not passed on yet (relays.ts). */
  readonly relaysAwaitingPassOn: MessageEntry[];
}

/** A steer the client sent: its entry, its request (ledger key) and the text on the wire (a relay's with its label). */
export interface SteerCopy {
  readonly entry: MessageEntry;
  readonly key: string;
  readonly wireText: string;
}

export function emptyIndex(): SessionIndex {
  return { messages: new Map(), sessionMessages: new Map(), toolEntries: new Map(), plans: new Map(), promptCopies: [], heldEchoes: new Map(), unnamedCopies: [], compactionsReported: new Set(), openSteers: [], relaysAwaitingPassOn: [] };
}

/** A v2 prompt the client sent, until the agent acknowledges it. */
interface PromptCopy {
  readonly entry: MessageEntry;
  /** The session/prompt request (its ledger key): its acknowledgement names this copy's messageId. */
  readonly promptKey: string;
}

/** A message the client sent: its text on the wire (a relay's with its label) and the agent's account so far. */
export interface SentWords {
  readonly wire: string;
  account?: string;
}
