// What the chat holds that the host does not: expanded cards, the header's disclosures, the prompt boxes'
// drafts and chips, attachments and file suggestions waiting for the prompt box, and the host's answers to
// requests (refusals shown where the user asked). Kept apart from the mirror, which only applies what the host sends.
import type {
  AddAttachmentMessage,
  AnsweredRequestKey,
  FileSearchResultsMessage,
  PathAttachment,
  PromptAttachment,
  RequestOutcomeMessage,
} from '../../src/protocol/webviewMessages';
import type { RestoredDraft } from '../events';
import { COMPOSER_TOPIC, OUTCOME_TOPIC, TopicBus, UI_TOPIC } from './topics';

/** What the prompt box holds for a session; kept across the webview being hidden and shown again. */
export interface ComposerState {
  readonly draft: string;
  readonly attachments: readonly PromptAttachment[];
}

/** The header's disclosures: its details (changes, timeline, how the state came about) and the session outline. */
export type HeaderPart = 'details' | 'outline';

/** Media is too large for the webview state: only text and path attachments are kept. */
function keepable(attachments: readonly PromptAttachment[]): PromptAttachment[] {
  return attachments.filter((a) => 'path' in a);
}

function isComposerState(value: unknown): value is ComposerState {
  const v = value as Partial<ComposerState> | null;
  return typeof v === 'object' && v !== null && typeof v.draft === 'string' && Array.isArray(v.attachments);
}

/** Puts `key` in `set` or takes it out; says whether that changed the set. */
function putInSet<T>(set: Set<T>, key: T, member: boolean): boolean {
  if (member === set.has(key)) return false;
  if (member) set.add(key);
  else set.delete(key);
  return true;
}

/** Which answered request a refusal belongs to: the request, its session and the item it named. */
type RequestKey = AnsweredRequestKey;

const keyOf = ({ request, sessionId, target }: RequestKey): string => `${request}\0${sessionId}\0${target ?? ''}`;

/** A refusal, and where in the chat the user asked (the element that posted, by tag name). */
interface Refusal {
  readonly reason: string;
  readonly place: string | undefined;
}

export class ChatViewModel {
  /** Which child cards are expanded inline. */
  private readonly expanded = new Set<string>();
  private readonly openParts = new Set<HeaderPart>();
  private readonly composers = new Map<string, ComposerState>();
  private readonly draftInbox = new Map<string, RestoredDraft>();
  /** Attachments added from the editor or the explorer that the prompt box has not taken yet. */
  private attachmentInbox: PathAttachment[] = [];
  /** The host's latest answer to the prompt box's file search. */
  fileSuggestions: FileSearchResultsMessage | undefined;
  /** Where each answered request was last asked from, until the host answers it. */
  private readonly askedFrom = new Map<string, string | undefined>();
  private readonly refusals = new Map<string, Refusal>();
  /** Why a message's earlier text could not be read back, by entry id (until it is asked for again). */
  private readonly earlierProblems = new Map<string, string>();

  constructor(private readonly bus = new TopicBus()) {}

  isExpanded(sessionId: string): boolean {
    return this.expanded.has(sessionId);
  }

  setExpanded(sessionId: string, expanded: boolean): void {
    if (putInSet(this.expanded, sessionId, expanded)) this.bus.emit([sessionId, UI_TOPIC]);
  }

  expandedSessions(): string[] {
    return [...this.expanded];
  }

  isOpen(part: HeaderPart): boolean {
    return this.openParts.has(part);
  }

  setOpen(part: HeaderPart, open: boolean): void {
    if (putInSet(this.openParts, part, open)) this.bus.emit([UI_TOPIC]);
  }

  composer(sessionId: string): ComposerState | undefined {
    return this.composers.get(sessionId);
  }

  /** Keeps a prompt box's draft and chips (the app persists them with the UI state; the queue is the host's). */
  saveComposer(sessionId: string, state: ComposerState): void {
    const kept = { draft: state.draft, attachments: keepable(state.attachments) };
    if (kept.draft === '' && kept.attachments.length === 0) this.composers.delete(sessionId);
    else this.composers.set(sessionId, kept);
    this.bus.emit([UI_TOPIC]);
  }

  composerStates(): Record<string, ComposerState> {
    return Object.fromEntries(this.composers);
  }

  /** Restores what `composerStates` gave, ignoring anything of another shape (an older page's state). */
  restoreComposers(saved: unknown): void {
    if (typeof saved !== 'object' || saved === null) return;
    for (const [sessionId, state] of Object.entries(saved)) if (isComposerState(state)) this.composers.set(sessionId, state);
  }

  /** The host could not read a message's earlier text back (shown on the message); undefined clears it. */
  setEarlierProblem(entryId: string, problem: string | undefined): void {
    if (problem === undefined ? !this.earlierProblems.delete(entryId) : this.earlierProblems.get(entryId) === problem) return;
    if (problem !== undefined) this.earlierProblems.set(entryId, problem);
    this.bus.emit([OUTCOME_TOPIC]);
  }

  earlierProblem(entryId: string): string | undefined {
    return this.earlierProblems.get(entryId);
  }

  /** Host messages for the prompt box. */
  applyComposer(message: FileSearchResultsMessage | AddAttachmentMessage): void {
    if (message.type === 'fileSearchResults') this.fileSuggestions = message;
    else this.attachmentInbox.push(message.attachment);
    this.bus.emit([COMPOSER_TOPIC]);
  }

  /** Puts words back in a session's prompt box (a message that did not reach the agent, or one to edit and send again). */
  restoreDraft(sessionId: string, draft: RestoredDraft): void {
    this.draftInbox.set(sessionId, draft);
    this.bus.emit([COMPOSER_TOPIC]);
  }

  /** The words put back for this session's box since it last looked, if any. */
  takeDraft(sessionId: string): RestoredDraft | undefined {
    const draft = this.draftInbox.get(sessionId);
    this.draftInbox.delete(sessionId);
    return draft;
  }

  takeAttachments(): PathAttachment[] {
    const taken = this.attachmentInbox;
    this.attachmentInbox = [];
    return taken;
  }

  /** The user asked again from `place`: an earlier refusal no longer stands. */
  asked(key: RequestKey, place: string | undefined): void {
    const id = keyOf(key);
    this.askedFrom.set(id, place);
    if (this.refusals.delete(id)) this.bus.emit([OUTCOME_TOPIC]);
  }

  /** The host's answer: a refusal is kept for the place that asked; a success clears it. */
  applyOutcome(message: RequestOutcomeMessage): void {
    const id = keyOf(message);
    const place = this.askedFrom.get(id);
    this.askedFrom.delete(id);
    if (message.refused !== undefined) this.refusals.set(id, { reason: message.refused, place });
    else if (!this.refusals.delete(id)) return;
    this.bus.emit([OUTCOME_TOPIC]);
  }

  /** Why the host refused this request, when it was asked from `place`. */
  refusal(key: RequestKey, place: string): string | undefined {
    const refusal = this.refusals.get(keyOf(key));
    return refusal?.place === place ? refusal.reason : undefined;
  }
}
