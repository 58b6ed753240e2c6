import type { Recording } from './read-recording.ts';
import { RecordReader } from './record-reader.ts';
import type { RecordStream } from './recording-set.ts';

/**
 * One pass over a recording's records in file order: over bytes already in memory, or
 * over a {@link RecordStream} a block at a time. Stepping is synchronous within a block
 * (a block holds whole instants, so an instant's records are stepped through together);
 * only moving to the next block waits ({@link ready}).
 *
 * @example
 * ```ts
 * const cursor = new RecordCursor(await openRecordings(dir));
 * while (await cursor.ready()) { use(cursor.reader); cursor.step(); }
 * ```
 */
export class RecordCursor {
  private current: RecordReader | undefined;
  private blocks: AsyncGenerator<RecordReader, void, undefined> | undefined;
  /** Whether the cursor stands on a record not yet stepped past. */
  pending = false;

  constructor(recording: Recording | RecordStream) {
    if ('bytes' in recording) {
      this.current = new RecordReader(recording.bytes, recording.dir);
      this.pending = this.current.next();
    } else {
      this.blocks = recording.blocks();
    }
  }

  /** The reader of the current block, standing on the current record while {@link pending}. */
  get reader(): RecordReader {
    if (this.current === undefined) throw new Error('RecordCursor: no block loaded yet');
    return this.current;
  }

  /** Steps past the current record within the block; false at the block's end. */
  step(): boolean {
    this.pending = this.reader.next();
    return this.pending;
  }

  /**
   * Makes sure the cursor stands on a record, loading the next block when the current
   * one is used up; false once every record was stepped past.
   */
  async ready(): Promise<boolean> {
    while (!this.pending && this.blocks !== undefined) {
      const next = await this.blocks.next();
      if (next.done === true) {
        this.blocks = undefined;
        break;
      }
      this.current = next.value;
      this.pending = this.current.next();
    }
    return this.pending;
  }

  /** Stops reading (closes the file of a stream); the cursor stands on nothing after. */
  close(): void {
    this.pending = false;
    const blocks = this.blocks;
    this.blocks = undefined;
    // Ending the generator closes its file; a failure there has nobody left to tell.
    void blocks?.return().catch(() => undefined);
  }
}
