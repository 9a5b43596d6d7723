// Which other extensions may start agents, send prompts and read transcripts through the public API. VS Code
// does not tell an API which extension calls it, so the caller names itself (its extension id) and must be an
// installed extension other than Subchats; the user is asked once per extension, the answer (either way) is
// remembered in global state, and "Subchats: Manage API Access" changes it. A refusal is remembered too, so an
// extension cannot ask again and again.

export const API_ACCESS_KEY = 'subchats.apiAccess';

export interface ApiCaller {
  /** The extension id (publisher.name), lower case. */
  readonly id: string;
  /** Its display name as its manifest gives it (extension-supplied text: show it inert). */
  readonly name: string;
}

/** The parts of a vscode.Memento used. */
interface ConsentStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export interface ApiConsentOptions {
  readonly storage: ConsentStorage;
  /** Subchats' own id: no caller is Subchats. */
  readonly ownId: string;
  /** The installed extension with this id (case-insensitive), or undefined. */
  installed(extensionId: string): ApiCaller | undefined;
  /** Asks the user; true only for an explicit allow. */
  ask(caller: ApiCaller): Promise<boolean>;
}

type Decisions = Record<string, boolean>;

export class ApiConsent {
  private readonly asking = new Map<string, Promise<boolean>>();

  constructor(private readonly options: ApiConsentOptions) {}

  /** The calling extension once the user allows it (asked the first time); rejects with the reason otherwise. */
  async request(extensionId: unknown): Promise<ApiCaller> {
    const found = typeof extensionId === 'string' && extensionId ? this.options.installed(extensionId) : undefined;
    if (!found) throw new Error(`Subchats API: ${JSON.stringify(extensionId)} is not an installed extension; pass your own extension id (context.extension.id).`);
    const caller = { id: found.id.toLowerCase(), name: found.name };
    if (caller.id === this.options.ownId.toLowerCase()) throw new Error('Subchats API: pass your own extension id, not Subchats\'.');

    const decided = this.read()[caller.id];
    const allowed = decided ?? (await this.askOnce(caller));
    if (!allowed) throw this.refusal(caller);
    return caller;
  }

  isAllowed(extensionId: string): boolean {
    return this.read()[extensionId.toLowerCase()] === true;
  }

  refusal(caller: ApiCaller): Error {
    return new Error(`Subchats API: the user did not allow ${caller.name} (${caller.id}) to start agents, send prompts or read transcripts; "Subchats: Manage API Access" changes that.`);
  }

  /** Every extension the user decided about, in id order (an uninstalled one by its id). */
  decisions(): { caller: ApiCaller; allowed: boolean }[] {
    return Object.entries(this.read())
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([id, allowed]) => ({ caller: { id, name: this.options.installed(id)?.name ?? id }, allowed }));
  }

  async decide(extensionId: string, allowed: boolean): Promise<void> {
    await this.options.storage.update(API_ACCESS_KEY, { ...this.stored(), [extensionId.toLowerCase()]: allowed ? 'allowed' : 'denied' });
  }

  private askOnce(caller: ApiCaller): Promise<boolean> {
    let question = this.asking.get(caller.id);
    if (!question) {
      question = this.options
        .ask(caller)
        .catch(() => false)
        .then(async (allowed) => {
          await this.decide(caller.id, allowed);
          return allowed;
        })
        .finally(() => this.asking.delete(caller.id));
      this.asking.set(caller.id, question);
    }
    return question;
  }

  /** The stored answers, leniently: anything but an own 'allowed'/'denied' value is ignored. */
  private stored(): Record<string, 'allowed' | 'denied'> {
    const raw = this.options.storage.get<unknown>(API_ACCESS_KEY);
    const out = Object.create(null) as Record<string, 'allowed' | 'denied'>;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
    for (const [id, value] of Object.entries(raw)) if (value === 'allowed' || value === 'denied') out[id] = value;
    return out;
  }

  private read(): Decisions {
    const decisions: Decisions = Object.create(null) as Decisions;
    for (const [id, value] of Object.entries(this.stored())) decisions[id] = value === 'allowed';
    return decisions;
  }
}
