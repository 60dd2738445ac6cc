// Capped capture of a command's output. It must not import `vscode`.

/** DefaultOutputLimit is how much output the tool keeps: the last 64 KiB. */
export const DefaultOutputLimit = 64 * 1024;

/**
 * TailBuffer keeps the last `limit` bytes written to it and counts what it
 * dropped from the front.
 */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** dropped is the number of bytes discarded from the front. */
  dropped = 0;

  constructor(readonly limit = DefaultOutputLimit) {}

  /** write appends a chunk, dropping the oldest bytes beyond the limit. */
  write(chunk: Buffer | string): void {
    let b = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    if (b.length >= this.limit) {
      this.dropped += this.size + b.length - this.limit;
      b = b.subarray(b.length - this.limit);
      this.chunks = [Buffer.from(b)];
      this.size = b.length;
      return;
    }
    this.chunks.push(b);
    this.size += b.length;
    while (this.size > this.limit) {
      const first = this.chunks[0] as Buffer;
      const excess = this.size - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
        this.dropped += first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
        this.dropped += excess;
      }
    }
  }

  /** bytes is the kept tail. */
  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }

  /**
   * text is the kept tail as UTF-8; when bytes were dropped, a leading
   * partial character is skipped rather than decoded as garbage.
   */
  text(): string {
    let b = this.bytes();
    if (this.dropped > 0) {
      let i = 0;
      while (i < b.length && i < 3 && ((b[i] as number) & 0xc0) === 0x80) i++;
      b = b.subarray(i);
    }
    return b.toString("utf8");
  }
}
