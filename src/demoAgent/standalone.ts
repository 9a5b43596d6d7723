// Runs the demo agent without the CLI bundle: `node --import tsx src/demoAgent/standalone.ts [options]`.
import { runDemoAgentCli } from './index';

runDemoAgentCli(process.argv.slice(2), process.stdin, process.stdout).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[subchats-demo-agent] fatal: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
