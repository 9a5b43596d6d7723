// Keeps only the most recent text (e.g. an agent's stderr) within a character budget.

export class TailBuffer {
  private chunks: string[] = [];
  private length = 0;

  constructor(private readonly maxChars: number) {}

  append(text: string): void {
    if (!text) return;
    this.chunks.push(text);
    this.length += text.length;
    while (this.chunks.length > 1 && this.length - this.chunks[0]!.length >= this.maxChars) {
      this.length -= this.chunks.shift()!.length;
    }
    const excess = this.length - this.maxChars;
    if (excess > 0) {
      this.chunks[0] = this.chunks[0]!.slice(excess);
      this.length -= excess;
    }
  }

  toString(): string {
    return this.chunks.join('');
  }
}
