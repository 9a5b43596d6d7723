// Byte-level helpers for UTF-8 output buffers (terminal output limits must not split characters).

function isContinuationByte(byte: number): boolean {
  return (byte & 0b1100_0000) === 0b1000_0000;
}

/** The last at most `limit` bytes of `bytes`, starting at a character boundary. */
export function utf8TailWithin(bytes: Buffer, limit: number): Buffer {
  if (bytes.length <= limit) return bytes;
  let start = bytes.length - Math.max(0, limit);
  while (start < bytes.length && isContinuationByte(bytes[start]!)) start++;
  return bytes.subarray(start);
}

/** Length of the longest prefix of `bytes` that ends on a complete character (drops a split trailing sequence). */
export function completeUtf8Length(bytes: Buffer): number {
  let index = bytes.length - 1;
  let continuation = 0;
  while (index >= 0 && continuation < 3 && isContinuationByte(bytes[index]!)) {
    index--;
    continuation++;
  }
  if (index < 0) return bytes.length;
  const lead = bytes[index]!;
  const expected = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return expected > continuation + 1 ? index : bytes.length;
}
