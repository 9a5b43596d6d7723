// Command-line options of the demo agent.

export const DIALECTS = ['acp', 'claude', 'qwen', 'zed', 'kind-subagent', 'air'] as const;
export type DialectName = (typeof DIALECTS)[number];

export interface DemoOptions {
  /** Delay between scripted steps, in ms (text chunks use a third of it). */
  readonly pace: number;
  /** Minimum time the Explorer branch keeps working, so a child can be cancelled by hand. */
  readonly childDuration: number;
  readonly dialect: DialectName;
}

export const USAGE = `usage: subchats demo-agent [--pace <ms>] [--child-duration <ms>] [--dialect <name>]

A scripted ACP agent (JSON-RPC over stdio) with no model and no network.

  --pace <ms>            delay between steps (default 150, env SUBCHATS_DEMO_PACE); 0 for tests
  --child-duration <ms>  keep the Explorer branch (its grandchild Scout) working at least this long
  --dialect <name>       how subagents appear on the wire: ${DIALECTS.join(', ')} (default acp;
                         acp falls back to claude-style stamps when the client lacks clientCapabilities.subagents)

Each prompt runs a scripted tour: thoughts, text with a code block, a plan, a read, an edit and a
command (through the client's fs and terminal when offered), then two parallel subagents: Explorer
(cancellable, delegates to a grandchild Scout) and Reviewer (not cancellable, asks a permission).
It only writes subchats-demo/notes.md and subchats-demo/review.md inside the session cwd, each
after a permission the user allowed. Mode "plan" skips the edit and the command.

Special prompts (anywhere in the prompt text):
  /quick   answer with a short text only (no tools, no subagents)
  /long    stream a very long answer (at least 20 s, ~2000 chunks) until cancelled
  /crash   send a few updates, then exit the process with code 1
  /hang    never answer this prompt (not even after session/cancel)
  /error   answer the prompt with a JSON-RPC error (-32603)
`;

export class UsageError extends Error {}

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): DemoOptions {
  let pace = env.SUBCHATS_DEMO_PACE !== undefined ? parseMs('SUBCHATS_DEMO_PACE', env.SUBCHATS_DEMO_PACE) : 150;
  let childDuration = 0;
  let dialect: DialectName = 'acp';
  for (let i = 0; i < argv.length; i++) {
    const [flag, inlineValue] = splitFlag(argv[i] ?? '');
    const value = (): string => {
      const next = inlineValue ?? argv[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--pace':
        pace = parseMs(flag, value());
        break;
      case '--child-duration':
        childDuration = parseMs(flag, value());
        break;
      case '--dialect': {
        const name = value();
        if (!(DIALECTS as readonly string[]).includes(name)) throw new UsageError(`unknown dialect: ${name}`);
        dialect = name as DialectName;
        break;
      }
      default:
        throw new UsageError(`unknown option: ${flag}`);
    }
  }
  return { pace, childDuration, dialect };
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}

function parseMs(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`${name} must be a number of milliseconds`);
  return value;
}
