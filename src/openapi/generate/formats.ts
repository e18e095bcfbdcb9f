import * as fc from 'fast-check';

const DAY_MS = 86_400_000;
/** Instants generated: 2020-01-01 to 2039-12-31, whole milliseconds. */
const FROM = Date.UTC(2020, 0, 1);
const TO = Date.UTC(2039, 11, 31);

const instant = fc.integer({ min: FROM, max: TO }).map((ms) => new Date(ms));
/** A lower-case label (a host's or a path's segment); fast-check's own web arbitraries take seconds to build. */
const label = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength: 10 });
const host = fc.tuple(label, fc.constantFrom('example', 'test', 'invalid')).map(([a, b]) => `${a}.${b}`);

/** Valid values of a string `format`, or undefined for a format it does not know (the schema's other keywords then generate). */
export function validFormat(format: string): fc.Arbitrary<string> | undefined {
  switch (format) {
    case 'date':
      return fc.integer({ min: FROM / DAY_MS, max: TO / DAY_MS }).map((d) => new Date(d * DAY_MS).toISOString().slice(0, 10));
    case 'date-time':
      return instant.map((d) => d.toISOString());
    case 'time':
      return instant.map((d) => `${d.toISOString().slice(11, 19)}Z`);
    case 'uri':
    case 'url':
    case 'iri':
      return fc
        .tuple(fc.constantFrom('https', 'http'), host, fc.array(label, { maxLength: 3 }))
        .map(([scheme, h, path]) => `${scheme}://${h}/${path.join('/')}`);
    case 'email':
      return fc.tuple(label, host).map(([user, h]) => `${user}@${h}`);
    case 'uuid':
      return fc.uuid();
    case 'hostname':
      return host;
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    default:
      return undefined;
  }
}

/** Strings that break a `format` (the walker keeps those its validator refuses). */
export function invalidFormats(format: string): string[] {
  switch (format) {
    case 'date':
      return ['2027-02-30', '14/03/2027', '2027-3-1', 'not-a-date', '2027-13-01'];
    case 'date-time':
      return ['2027-03-14 10:15', '2027-03-14T25:00:00Z', 'yesterday', '2027-03-14'];
    case 'time':
      return ['25:00:00Z', 'noon'];
    case 'uri':
    case 'url':
    case 'iri':
      return ['not a uri', 'example.com/path', '//no-scheme', ':'];
    case 'email':
      return ['no-at-sign', '@example.com'];
    case 'uuid':
      return ['not-a-uuid', '123'];
    case 'hostname':
      return ['-bad-', 'a..b'];
    case 'ipv4':
      return ['256.1.1.1', '1.2.3'];
    case 'ipv6':
      return ['::g', '1:2'];
    default:
      return [];
  }
}
