// unbzip2-stream ships no types: a factory of a through (duplex) stream of decompressed bytes.
declare module 'unbzip2-stream' {
  import type { Duplex } from 'node:stream';
  export default function unbzip2(): Duplex;
}
