import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certifyClient } from '../../../src/certify/client/certify-client.js';

/** An address of this machine other than loopback, as a container or another host would dial it. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

describe('certify-client --host', () => {
  it.skipIf(outside === undefined)(
    'binds the mock where a client that is not on loopback reaches it',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'svc-cc-host-'));
      try {
        const script = `const u=new URL(process.env.SVC_BASE_URL);require("net").connect(Number(u.port),"${outside}").on("connect",()=>{console.log("reached "+u.hostname);process.exit(0)}).on("error",(e)=>{console.log("refused "+e.code);process.exit(1)})`;
        const r = await certifyClient({ host: '0.0.0.0', run: `node -e '${script}'`, reportDir: dir });
        expect(r.command?.output.trim()).toBe('reached 0.0.0.0');
        // On loopback only (the default), the same client is refused.
        const local = await certifyClient({ run: `node -e '${script}'`, reportDir: dir });
        expect(local.command?.output.trim()).toMatch(/^refused /);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
