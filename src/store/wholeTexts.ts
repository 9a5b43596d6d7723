// Sessions with every message whole: the heads a vault keeps (textSpill.ts) read back. For what must hold all the
// words (an export, Open Chat as Text, Search Chats), not for the chat, which reads pages as the user scrolls up.
import type { Entry, SessionView } from './model';
import type { SessionStoreReader } from './storeAccess';
import { earlierTextNote } from '../presentation/earlierText';
import { t } from '../presentation/l10n';

type WholeTextReader = Pick<SessionStoreReader, 'getSession' | 'wholeText'>;

/** The session as it is, or a copy whose messages with a head on disk hold their whole text. */
export async function withWholeTexts(reader: WholeTextReader, session: SessionView): Promise<SessionView> {
  if (!reader.wholeText || !session.entries.some((entry) => entry.kind === 'message' && entry.earlier)) return session;
  const entries = await Promise.all(
    session.entries.map(async (entry): Promise<Entry> => {
      if (entry.kind !== 'message' || !entry.earlier) return entry;
      const { earlier, ...rest } = entry;
      try {
        return { ...rest, text: (await reader.wholeText!(session.id, entry.id)) ?? entry.text };
      } catch (error) {
        // Said where the words are missing, never left out silently.
        const why = t('({0}; it could not be read back: {1})', earlierTextNote(earlier), String((error as Error)?.message ?? error));
        return { ...rest, text: `${why}\n\n${entry.text}` };
      }
    }),
  );
  return { ...session, entries };
}

/** A session and its descendants with whole texts, as a lookup by id (for the formatters that walk a subtree). */
export async function subtreeWithWholeTexts(reader: WholeTextReader, rootId: string): Promise<(id: string) => SessionView | undefined> {
  const sessions = new Map<string, SessionView>();
  const pending = [rootId];
  while (pending.length > 0) {
    const session = reader.getSession(pending.pop()!);
    if (!session || sessions.has(session.id)) continue;
    sessions.set(session.id, await withWholeTexts(reader, session));
    pending.push(...session.childIds);
  }
  return (id) => sessions.get(id);
}
