// Entry of the built-in demo agent (`subchats demo-agent`): a scripted ACP agent over stdio,
// no model, no network. See USAGE in ./options for flags and special prompts.
import { DemoAgent } from './demoAgent';
import { LineRpc } from './lineRpc';
import { USAGE, UsageError, parseOptions } from './options';

/** Runs until stdin ends; resolves with the exit code (2 for bad arguments). Diagnostics go to stderr only. */
export async function runDemoAgentCli(argv: string[], stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream): Promise<number> {
  const log = (message: string): void => {
    process.stderr.write(`[subchats-demo-agent] ${message}\n`);
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stderr.write(USAGE);
    return 0;
  }
  let options;
  try {
    options = parseOptions(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}`);
    return 2;
  }
  const rpc = new LineRpc(stdin, stdout, log);
  new DemoAgent(rpc, { options, log, exit: (code) => process.exit(code) });
  await rpc.closed;
  return 0;
}
