/**
 * Passes every string written to `stream` through `redact` first. The
 * console printers are many and print what a target answered (a
 * `Retry-After` value, an error message, a URL): one wrapper at the stream
 * keeps every secret off the console whichever printer wrote it.
 */
export function redactWrites(stream: NodeJS.WriteStream, redact: (text: string) => string): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
    if (typeof chunk === 'string') return write(redact(chunk), ...rest);
    if (chunk instanceof Uint8Array) return write(redact(Buffer.from(chunk).toString('utf8')), ...rest);
    return write(chunk, ...rest);
  }) as typeof stream.write;
}
