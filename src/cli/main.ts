// `subchats` command line: `replay FILE [--json]` and `demo-agent [options]`.
import { runReplay } from './replayCommand';

const USAGE = `usage:
  subchats replay FILE [--json]     print the session tree of a transcript
  subchats demo-agent [options]     run the built-in demo ACP agent on stdio`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'replay':
      return runReplay(rest, (t) => process.stdout.write(t + '\n'), (t) => process.stderr.write(t + '\n'));
    case 'demo-agent': {
      const { runDemoAgentCli } = await import('../demoAgent/index');
      // Exit explicitly: the agent's pacing timers must not outlive its stdin.
      process.exit(await runDemoAgentCli(rest, process.stdin, process.stdout));
    }
    default:
      process.stderr.write(USAGE + '\n');
      return command === undefined || command === '--help' ? 0 : 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`subchats: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
