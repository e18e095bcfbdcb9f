/** The port the live page takes when `--dashboard` names none (k6's web dashboard's). */
export const DEFAULT_LIVE_PORT = 5665;
