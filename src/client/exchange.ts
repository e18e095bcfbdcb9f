/**
 * One HTTP exchange as the harness saw it: the evidence unit of every verdict.
 * Bodies are kept as text (UTF-8, lossy for binary); a large one only as a
 * prefix with the whole body's byte count and SHA-256, so evidence stays bounded.
 */
export interface Exchange {
  /** Unique within a run, e.g. `x-000042`. */
  id: string;
  /** Free label saying why it was sent, e.g. `RL-01 fill read bucket`. */
  label?: string;
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    body: string;
    /** Raw body bytes as base64 (of the kept prefix when `truncated`). */
    bodyBase64?: string;
    /** The whole body's byte count; present when `truncated`. */
    bytes?: number;
    /** SHA-256 (hex) of the whole body; present when `truncated` and the whole was read. */
    sha256?: string;
    /** True when `body` and `bodyBase64` hold only a prefix (64 KiB by default) of a larger body. */
    truncated?: boolean;
  };
  /** Transport failure text, when no response came. */
  error?: string;
  /** Harness clock (ms since epoch, target's time where the clock is driven) when the request was sent. */
  startedAt: number;
  /** Real elapsed milliseconds until the whole response body arrived. */
  durationMs: number;
}

/** Collects exchanges; checks hand the ids of the relevant ones to their verdicts. */
export interface ExchangeRecorder {
  record(exchange: Exchange): void;
  nextId(): string;
}

/** An in-memory recorder. */
export class MemoryRecorder implements ExchangeRecorder {
  readonly exchanges: Exchange[] = [];
  private counter = 0;

  record(exchange: Exchange): void {
    this.exchanges.push(exchange);
  }

  nextId(): string {
    this.counter += 1;
    return `x-${String(this.counter).padStart(6, '0')}`;
  }
}
