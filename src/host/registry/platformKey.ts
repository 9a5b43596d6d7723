// The registry's name for this machine's os and architecture (`linux-x86_64`, `darwin-aarch64`, `windows-x86_64`).
const OS: Readonly<Record<string, string>> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const ARCH: Readonly<Record<string, string>> = { x64: 'x86_64', arm64: 'aarch64' };

/** Undefined on a platform the registry has no binaries for. */
export function platformKey(platform: string = process.platform, arch: string = process.arch): string | undefined {
  const os = OS[platform];
  const cpu = ARCH[arch];
  return os && cpu ? `${os}-${cpu}` : undefined;
}
