import { Transform, type TransformCallback } from "node:stream";

/** Fails a stream that receives nothing for `timeoutMs`: a store that stops sending mid-file is given up on. */
export class IdleGuard extends Transform {
  private readonly timeoutMs: number;
  private timer: NodeJS.Timeout;

  constructor(timeoutMs: number) {
    super();
    this.timeoutMs = timeoutMs;
    this.timer = this.arm();
  }

  private arm(): NodeJS.Timeout {
    return setTimeout(
      () => this.destroy(new Error(`the download stalled: nothing received for ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    clearTimeout(this.timer);
    this.timer = this.arm();
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    clearTimeout(this.timer);
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    done(error);
  }
}
