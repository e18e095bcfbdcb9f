/**
 * Reads a value at a dotted path (`price.amount`, `results.0.quote_token`);
 * an empty path is the value itself; `undefined` when any step is missing.
 */
export function getField(obj: unknown, dottedPath: string): unknown {
  if (dottedPath === '') return obj;
  let cur: unknown = obj;
  for (const step of dottedPath.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(step)) return undefined;
      cur = cur[Number(step)];
    } else {
      if (!Object.prototype.hasOwnProperty.call(cur, step)) return undefined;
      cur = (cur as Record<string, unknown>)[step];
    }
  }
  return cur;
}

/** The string at a dotted path, or `undefined` when absent or not a string. */
export function getString(obj: unknown, dottedPath: string): string | undefined {
  const v = getField(obj, dottedPath);
  return typeof v === 'string' ? v : undefined;
}

/** The finite number at a dotted path, or `undefined` when absent or not a number. */
export function getNumber(obj: unknown, dottedPath: string): number | undefined {
  const v = getField(obj, dottedPath);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The array at a dotted path, or an empty array when absent or not an array. */
export function getArray(obj: unknown, dottedPath: string): unknown[] {
  const v = getField(obj, dottedPath);
  return Array.isArray(v) ? v : [];
}

const WHOLE = /^\{([A-Za-z0-9_]+)\}$/;
const PART = /\{([A-Za-z0-9_]+)\}/g;

/**
 * A deep copy of a profile body template with placeholders filled in. A
 * string that is exactly `"{name}"` becomes `vars.name` whatever its type
 * (so `"{criteria}"` becomes an object); an object member whose value is such
 * a placeholder of an `undefined` var is dropped; `{name}` inside a longer
 * string is replaced by the var's text. Unknown placeholders stay as written.
 */
export function setTemplate(body: unknown, vars: Readonly<Record<string, unknown>>): unknown {
  if (typeof body === 'string') {
    const whole = WHOLE.exec(body);
    if (whole) return Object.prototype.hasOwnProperty.call(vars, whole[1]!) ? vars[whole[1]!] : body;
    return body.replace(PART, (m, name: string) => {
      const v = Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined;
      return v === undefined ? m : typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(body)) return body.map((item) => setTemplate(item, vars));
  if (body !== null && typeof body === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body)) {
      const filled = setTemplate(v, vars);
      if (filled === undefined) continue;
      out[k] = filled;
    }
    return out;
  }
  return body;
}

/** Fills `{name}` segments of an operation path template, percent-encoding each value. */
export function fillPath(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(PART, (m, name: string) => {
    const v = vars[name];
    return v === undefined ? m : encodeURIComponent(v);
  });
}
