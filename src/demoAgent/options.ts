// Command-line options of the demo agent.
import { parseArgs, type ParseArgsConfig } from 'node:util';

const DIALECTS = ['acp', 'claude', 'qwen', 'zed', 'kind-subagent', 'air', 'copilot'] as const;
export type DialectName = (typeof DIALECTS)[number];

/**
 * Whether an agent of this dialect would speak ACP v2: v2 makes `subagent_update` baseline, so only `acp`;
 * the others are v1 agents' own subagent conventions (Copilot CLI, Claude stamps, …).
 */
export const dialectSpeaksV2 = (dialect: DialectName): boolean => dialect === 'acp';

export interface DemoOptions {
  /** Delay between scripted steps, in ms (text chunks use a third of it). */
  readonly pace: number;
  /** Minimum time the Explorer branch keeps working, so a child can be cancelled by hand. */
  readonly childDuration: number;
  readonly dialect: DialectName;
  /** Which ACP versions it answers: `auto` the offered one (2 only in a v2 dialect, else 1), `1`/`2` only that one. */
  readonly protocol: 'auto' | 1 | 2;
  /** Whether it offers `_session/steering` (advertised in initialize `_meta.steering`). */
  readonly steering: boolean;
}

export const USAGE = `usage: subchats demo-agent [--pace <ms>] [--child-duration <ms>] [--dialect <name>] [--protocol auto|1|2] [--no-steering]

A scripted ACP agent (JSON-RPC over stdio) with no model and no network.

  --pace <ms>            delay between steps (default 150, env SUBCHATS_DEMO_PACE); 0 for tests
  --child-duration <ms>  keep the Explorer branch (its grandchild Scout) working at least this long
  --dialect <name>       how subagents appear on the wire: ${DIALECTS.join(', ')} (default acp;
                         acp falls back to claude-style stamps when the client lacks clientCapabilities.subagents)
  --protocol <v>         ACP version: auto (default) answers the version the client offers (1 in a dialect other
                         than acp: those are v1 agents' conventions), 1 or 2 only that one.
                         In v2 subagents are baseline, the prompt is acknowledged and ended by state_update,
                         and the demo command runs in an agent-owned terminal that can be cancelled alone
  --no-steering          do not offer _session/steering (by default it is advertised in initialize _meta: a
                         steer joins the running turn and is quoted at its next step, or starts a short turn of
                         its own when none runs; a relay for a subagent is passed on to it, as a steer or a prompt)

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
  /slow    the demo command keeps running until it is cancelled (v2: cancel just that tool call)
`;

export class UsageError extends Error {}

/** The flags `subchats demo-agent` takes; anything else is refused (parseArgs strict mode). */
const FLAGS = {
  pace: { type: 'string' },
  'child-duration': { type: 'string' },
  dialect: { type: 'string' },
  protocol: { type: 'string' },
  'no-steering': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const ALLOWED = Object.keys(FLAGS).map((name) => `--${name}`).join(', ');

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): DemoOptions {
  const { values } = parseFlags(argv);
  const pace = values.pace !== undefined ? parseMs('--pace', values.pace)
    : env.SUBCHATS_DEMO_PACE !== undefined ? parseMs('SUBCHATS_DEMO_PACE', env.SUBCHATS_DEMO_PACE)
      : 150;
  const childDuration = values['child-duration'] !== undefined ? parseMs('--child-duration', values['child-duration']) : 0;
  let dialect: DialectName = 'acp';
  if (values.dialect !== undefined) {
    if (!isDialect(values.dialect)) throw new UsageError(`unknown dialect: ${values.dialect} (one of ${DIALECTS.join(', ')})`);
    dialect = values.dialect;
  }
  const protocol = values.protocol === undefined || values.protocol === 'auto' ? 'auto' : values.protocol === '1' ? 1 : values.protocol === '2' ? 2 : undefined;
  if (protocol === undefined) throw new UsageError(`--protocol must be auto, 1 or 2 (got ${values.protocol})`);
  return { pace, childDuration, dialect, protocol, steering: values['no-steering'] !== true };
}

function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
}

/** parseArgs' own messages suggest `--` and positionals; name the flag and what is allowed instead. */
function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']+)'/.exec(message)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option: ${quoted ?? message} (allowed: ${ALLOWED})`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument: ${quoted ?? message} (the demo agent takes only options: ${ALLOWED})`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = /--[\w-]+/.exec(quoted ?? '')?.[0];
      if (flag === undefined) return message;
      return /does not take an argument/.test(message) ? `${flag} takes no value`
        : `${flag} needs a value (write ${flag}=<value> for one that starts with "-")`;
    }
    default:
      throw error;
  }
}

function isDialect(name: string): name is DialectName {
  return (DIALECTS as readonly string[]).includes(name);
}

function parseMs(name: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new UsageError(`${name} must be a number of milliseconds`);
  return value;
}
