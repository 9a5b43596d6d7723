// How a message for a subagent travels: ACP lets a client prompt only a root, so the text goes to the
// subagent's parent, labelled as a relay. One format, written by the host and read back by the demo agent
// (and by the store, to show the user's own words rather than the label).

const RELAY_HEAD = /^\[Relay for your subagent "((?:[^"\\]|\\.)*)" \(session ([^)\s]+)\): please pass this message on to it\]\n\n/;

export interface RelayAddress {
  /** The subagent's display name (what the user sees). */
  readonly childLabel: string;
  /** Its session id: for the agent, which knows its subagents by id. */
  readonly childId: string;
}

/** The text the parent receives: a one-line label naming the subagent, a blank line, the user's words. */
export function relayPromptText(address: RelayAddress, text: string): string {
  return `[Relay for your subagent ${JSON.stringify(address.childLabel)} (session ${address.childId}): please pass this message on to it]\n\n${text}`;
}

/** The subagent and the user's words of a relay text; undefined for any other text. */
export function parseRelayText(text: string): (RelayAddress & { readonly text: string }) | undefined {
  const match = RELAY_HEAD.exec(text);
  if (!match) return undefined;
  let childLabel: string;
  try {
    childLabel = JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return undefined;
  }
  return { childLabel, childId: match[2]!, text: text.slice(match[0].length) };
}
