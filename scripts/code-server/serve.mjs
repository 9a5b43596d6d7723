// Runs code-server in the foreground until Ctrl+C (used by `npm start` when desktop VS Code is absent).
// Usage: node scripts/code-server/serve.mjs --state DIR --workspace DIR [--extensions-dir DIR] [--port N]
import { parseArgs } from 'node:util';
import { startCodeServer, workbenchUrl } from './codeServer.mjs';

const { values } = parseArgs({
  options: {
    state: { type: 'string' },
    workspace: { type: 'string' },
    'extensions-dir': { type: 'string' },
    port: { type: 'string', default: '0' },
  },
});
if (!values.state || !values.workspace) {
  console.error('usage: serve.mjs --state DIR --workspace DIR [--extensions-dir DIR] [--port N]');
  process.exit(2);
}

const server = await startCodeServer({
  stateDir: values.state,
  workspace: values.workspace,
  extensionsDir: values['extensions-dir'],
  port: Number(values.port),
});
console.log(`\nSubchats is running in VS Code (code-server) at:\n\n  ${workbenchUrl(server.baseUrl, { folder: values.workspace })}\n`);
console.log(`Log: ${server.logFile}\nPress Ctrl+C to stop.`);

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping code-server...`);
  await server.stop();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void shutdown(signal));
void server.exited.then((code) => {
  if (stopping) return;
  console.error(`code-server exited on its own (${code}); see ${server.logFile}`);
  process.exit(1);
});
// The server runs detached and unreferenced; this keeps the foreground process alive until a signal arrives.
setInterval(() => {}, 1 << 30);
