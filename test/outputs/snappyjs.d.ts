/** The part of snappyjs (no types of its own) the remote-write test uses to read what was pushed. */
declare module 'snappyjs' {
  const SnappyJS: { uncompress(compressed: Uint8Array): Uint8Array };
  export default SnappyJS;
}
