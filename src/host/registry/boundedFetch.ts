import { t } from '../../presentation/l10n';
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
    return t('"{0}" is not a URL', url);
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) return undefined;
  return t('only https URLs are fetched (not {0}//{1})', parsed.protocol, parsed.host);
}

export async function boundedFetch(url: string, limits: FetchLimits): Promise<Buffer> {
  const refusal = refusedUrl(url);
  if (refusal) throw new Error(refusal);
  const tooBig = () => new Error(t('the download is larger than {0} MB', Math.round(limits.maxBytes / 1024 / 1024)));
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  let at = url;
  // Redirects are followed by hand, so a hop to a refused URL is never requested.
  for (let hops = 0; ; hops++) {
    try {
      response = await fetch(at, { signal, redirect: 'manual' });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? t('no answer within {0} s', limits.timeoutMs / 1000) : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
      throw new Error(t('could not reach {0}: {1}', new URL(at).host, reason));
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (!location) break;
    await response.body?.cancel();
    at = new URL(location, at).href;
    const refused = refusedUrl(at);
    if (refused) throw new Error(t('the download was redirected to {0}, which is refused: {1}', at, refused));
    if (hops >= 5) throw new Error('the download was redirected too often');
  }
  if (!response.ok) throw new Error(t('{0} answered {1} {2}', new URL(at).host, response.status, response.statusText).trim());
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
