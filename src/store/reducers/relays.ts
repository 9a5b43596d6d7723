// Messages for a subagent sent through its parent (ACP lets a client prompt only a root). The parent's copy of
// the message shows the user's words marked as a relay; the subagent's chat gets a copy of its own, which says
// when the parent passed it on (its next message to the subagent, or the subagent's next activity).
import { parseRelayText } from '../../protocol/relayText';
import type { MessageEntry, SessionRecord } from '../model';
import type { ReducerContext } from '../reducerContext';

/** Marks a user message on `parent` that is a relay: its words without the label, and a copy in the subagent's chat. */
export function markRelay(parts: ReducerContext, parent: SessionRecord, entry: MessageEntry): void {
  const relay = parseRelayText(entry.text);
  if (!relay) return;
  const child = parts.core.session(parts.tree.currentId(relay.childId));
  const childLabel = child?.label ?? relay.childLabel;
  entry.text = relay.text;
  entry.relay = { side: 'parent', childId: child?.id ?? relay.childId, childLabel, parentId: parent.id, parentLabel: parent.label };
  if (!child) return;
  const copy: MessageEntry = {
    kind: 'message',
    id: parts.core.nextEntryId('msg'),
    rev: parts.core.rev,
    at: parts.core.at,
    role: 'user',
    text: relay.text,
    attachments: [],
    relay: { ...entry.relay, side: 'child' },
  };
  parts.core.addEntry(child, copy);
  parts.core.indexOf(child).relaysAwaitingPassOn.push(copy);
}

/** Traffic on a subagent after a relay for it: the parent passed it on (a session_message) or the subagent is at work. */
export function notePassedOn(parts: ReducerContext, child: SessionRecord, kind: string): void {
  const waiting = parts.core.indexOf(child).relaysAwaitingPassOn;
  if (waiting.length === 0) return;
  const how = kind === 'session_message' || kind === 'session_message_chunk' ? 'message' : 'activity';
  for (const entry of waiting.splice(0)) {
    if (entry.relay) entry.relay.passedOn = { at: parts.core.at, how };
    parts.core.touchEntry(child, entry);
  }
}
