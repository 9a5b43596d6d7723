// Runs an extension's test module (what desktop VS Code takes as --extensionTestsPath) inside
// code-server's real extension host, relays the test output and resolves with the run's exit code.
// CLI (used by scripts/code-shim.sh):
//   node scripts/code-server/runExtensionTests.mjs --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [FOLDER]
import { pathToFileURL } from 'node:url';
import { format, parseArgs } from 'node:util';
import { launchWorkbench } from '../../test/e2e/harness/index.mjs';

const DEFAULT_TIMEOUT_MS = 300_000;

// The workbench mirrors its own log and the extension host's console (e.g. mocha's reporter) as
// console-style argument lists; its startup chatter is dropped so the test output stays readable.
const workbenchChatter = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket/,
  /^Ignoring fetching additional builtin extensions/,
  /^Updating additional builtin extensions cache/,
  /^\[Service Worker\]/,
  /^ChatSessionStore:/,
];

/**
 * @param {{ extensionDevelopmentPath: string, extensionTestsPath: string, workspaceFolder?: string,
 *   timeoutMs?: number, write?: (line: string) => void, userAgent?: string }} options
 *   userAgent: the browser's, from which the workbench takes its OS (default: headless Chromium's, Linux)
 * @returns {Promise<number>} 0 when the test module's run() resolved
 */
export async function runExtensionTests({
  extensionDevelopmentPath,
  extensionTestsPath,
  workspaceFolder,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  write = (line) => console.log(line),
  userAgent,
}) {
  let finished = false;
  let settle;
  const exitCode = new Promise((resolve) => {
    settle = (code) => {
      finished = true; // after the exit code only page-unload noise follows
      resolve(code);
    };
  });
  const relay = (level, args) => {
    if (finished) return;
    const text = format(...(Array.isArray(args) ? args : [args]));
    const chatter = level !== 'error' && level !== 'warn' && workbenchChatter.some((re) => re.test(text));
    if (!chatter) write(level === 'error' || level === 'warn' ? `[workbench ${level}] ${text}` : text);
  };
  const workbench = await launchWorkbench({
    extensionDevelopmentPath,
    extensionTestsPath,
    ...(workspaceFolder ? { workspaceFolder } : {}),
    ...(userAgent ? { userAgent } : {}),
    exposeFunctions: { codeAutomationLog: relay, codeAutomationExit: (code) => settle(code) },
  });
  const timer = setTimeout(() => {
    write(`[exthost] no result after ${timeoutMs / 1000}s`);
    settle(1);
  }, timeoutMs);
  try {
    return await exitCode;
  } finally {
    clearTimeout(timer);
    await workbench.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Accepts (and ignores) the desktop-only flags @vscode/test-electron adds, e.g. --disable-gpu-sandbox.
  const { values, positionals } = parseArgs({
    strict: false,
    allowPositionals: true,
    options: {
      extensionDevelopmentPath: { type: 'string' },
      extensionTestsPath: { type: 'string' },
    },
  });
  if (typeof values.extensionDevelopmentPath !== 'string' || typeof values.extensionTestsPath !== 'string') {
    console.error('usage: runExtensionTests.mjs --extensionDevelopmentPath=DIR --extensionTestsPath=FILE [FOLDER]');
    process.exit(2);
  }
  const code = await runExtensionTests({
    extensionDevelopmentPath: values.extensionDevelopmentPath,
    extensionTestsPath: values.extensionTestsPath,
    workspaceFolder: positionals.find((arg) => !arg.startsWith('-')),
    timeoutMs: Number(process.env.SUBCHATS_EXTHOST_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS),
  });
  process.exit(code);
}
