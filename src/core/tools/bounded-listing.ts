/**
 * A16: the rows of a search or glob result, bounded by count and by bytes so one call can
 * never flood the model's context. `add` says whether the row was taken; once full, every
 * later row is only counted.
 */
export class BoundedListing {
  private readonly rows: string[] = [];
  private bytes = 0;
  private left = 0;

  constructor(
    private readonly maxRows: number,
    private readonly maxBytes: number,
  ) {}

  add(row: string): boolean {
    const size = Buffer.byteLength(row) + 1;
    if (this.left > 0 || this.rows.length >= this.maxRows || this.bytes + size > this.maxBytes) {
      this.left++;
      return false;
    }
    this.rows.push(row);
    this.bytes += size;
    return true;
  }

  get full(): boolean {
    return this.left > 0;
  }

  get count(): number {
    return this.rows.length;
  }

  /** The rows, and when some were left out a last line saying so and how to narrow the call. */
  render(what: string, narrow: string): string {
    const body = this.rows.join('\n');
    if (this.left === 0) return body;
    const limit = this.rows.length >= this.maxRows ? `${this.maxRows} ${what}` : `${this.maxBytes} bytes`;
    return `${body}\n[… output stopped at ${limit}; ${narrow} …]`;
  }
}
