import { createHmac, randomBytes } from 'node:crypto';
import { expect, test } from 'vitest';
import { HmacKey } from '../../src/mock/domain/hmac-key.js';

const keys = [Buffer.alloc(0), Buffer.from('sk_test_secret'), randomBytes(32), randomBytes(64), randomBytes(65), randomBytes(200)];

test('the same MACs as createHmac, for keys shorter than, as long as and longer than a block, and messages around every block edge', () => {
  for (const raw of keys) {
    const key = new HmacKey(raw);
    for (let length = 0; length <= 200; length++) {
      const message = randomBytes(length).toString('base64url').slice(0, length);
      expect(key.hex(message)).toBe(createHmac('sha256', raw).update(message, 'utf8').digest('hex'));
      expect(key.base64url(message)).toBe(createHmac('sha256', raw).update(message, 'utf8').digest('base64url'));
    }
  }
});

test('non-ASCII text is MACed as its UTF-8 bytes, and a message beyond the prepared room as well', () => {
  const raw = randomBytes(32);
  const key = new HmacKey(raw);
  for (const message of [
    'é',
    'SVC-HMAC-SHA256\n1\nn\nPOST\n/v1/caf\u00e9\n\n',
    '→ 𝄞 \u0000',
    'x'.repeat(1365),
    'x'.repeat(1366),
    'é'.repeat(3000),
    'x'.repeat(10_000),
  ]) {
    expect(key.hex(message)).toBe(createHmac('sha256', raw).update(message, 'utf8').digest('hex'));
  }
});

test('a long message then a short one: nothing of the first is left in the second', () => {
  const raw = randomBytes(32);
  const key = new HmacKey(raw);
  key.hex('y'.repeat(1000));
  expect(key.hex('short')).toBe(createHmac('sha256', raw).update('short').digest('hex'));
});

test("the key is copied: changing the caller's buffer afterwards changes nothing", () => {
  const raw = Buffer.alloc(100, 7);
  const key = new HmacKey(raw);
  const before = key.hex('m'.repeat(2000));
  raw.fill(9);
  expect(key.hex('m'.repeat(2000))).toBe(before);
  expect(before).toBe(createHmac('sha256', Buffer.alloc(100, 7)).update('m'.repeat(2000)).digest('hex'));
});

test("keys used in turn do not mix: each MAC is its own key's", () => {
  const a = randomBytes(32);
  const b = randomBytes(80);
  const ka = new HmacKey(a);
  const kb = new HmacKey(b);
  for (const message of ['one', 'x'.repeat(300), 'two']) {
    expect(ka.hex(message)).toBe(createHmac('sha256', a).update(message).digest('hex'));
    expect(kb.hex(message)).toBe(createHmac('sha256', b).update(message).digest('hex'));
  }
});
