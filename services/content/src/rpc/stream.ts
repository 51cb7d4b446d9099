import type { ServerWritableStream } from '@grpc/grpc-js';

/** Writes to a server stream with backpressure: waits for 'drain' when grpc-js buffers too much (or the call ends). */
export function writeMessage<Req, Res>(stream: ServerWritableStream<Req, Res>, msg: Res): Promise<void> {
  if (stream.write(msg)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('cancelled', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('cancelled', done);
  });
}
