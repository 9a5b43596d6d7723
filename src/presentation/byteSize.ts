// A size in the sentence that says it: megabytes from a tenth of one, kilobytes (rounded up) below. Each caller
// passes its two whole sentences, so a translation can word each as it needs.

export function sizeSentence(bytes: number, megabytes: (mb: string) => string, kilobytes: (kb: number) => string): string {
  const mb = bytes / 1_048_576;
  return mb >= 0.1 ? megabytes(mb.toFixed(1)) : kilobytes(Math.ceil(bytes / 1024));
}
