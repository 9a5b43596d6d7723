// Downloads with Node's fetch, a timeout and a size bound. Only https, except plain http to 127.0.0.1/localhost
// (a local registry for tests or an offline mirror).
export interface FetchLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** Why a URL may not be fetched, or undefined when it may. */
export function refusedUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) return undefined;
  return `only https URLs are fetched (not ${parsed.protocol}//${parsed.host})`;
}

export async function boundedFetch(url: string, limits: FetchLimits): Promise<Buffer> {
  const refusal = refusedUrl(url);
  if (refusal) throw new Error(refusal);
  const tooBig = () => new Error(`the download is larger than ${Math.round(limits.maxBytes / 1024 / 1024)} MB`);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(limits.timeoutMs), redirect: 'follow' });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${limits.timeoutMs / 1000} s` : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
    throw new Error(`could not reach ${new URL(url).host}: ${reason}`);
  }
  if (refusedUrl(response.url || url)) throw new Error(`the download was redirected to ${response.url}, which is refused`);
  if (!response.ok) throw new Error(`${new URL(url).host} answered ${response.status} ${response.statusText}`.trim());
  if (Number(response.headers.get('content-length') ?? 0) > limits.maxBytes) throw tooBig();
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
    if (chunk.done) break;
    size += chunk.value.length;
    if (size > limits.maxBytes) {
      await reader?.cancel();
      throw tooBig();
    }
    chunks.push(Buffer.from(chunk.value));
  }
  return Buffer.concat(chunks);
}
