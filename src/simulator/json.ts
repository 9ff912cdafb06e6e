/**
 * JSON text for any answer the simulator sends, however deeply nested. `JSON.stringify` recurses and
 * overflows the stack around 4,000 levels on Node 20, while a misbehaving upstream can send more
 * (the poison scenario sends 8,000): those values are written by an explicit-stack serialiser that
 * produces the same text as `JSON.stringify` would for plain data.
 */

/** `JSON.stringify(value)` that never overflows the stack. */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyIteratively(value);
  }
}

interface Frame {
  /** Members still to write: [key, value] for objects, [null, value] for arrays. */
  members: Array<[string | null, unknown]>;
  next: number;
  close: string;
  /** Whether a member has been written (a comma goes before the next). */
  written: boolean;
}

/** Same output as JSON.stringify for JSON data (objects, arrays, strings, numbers, booleans, null, toJSON); never undefined. */
export function stringifyIteratively(value: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  // Writes a scalar, or opens a frame for a container. As in JSON.stringify, a member with no JSON
  // form (undefined, a function) is left out of an object and written as null in an array.
  const write = (key: string | null, raw: unknown, inArray: boolean, frame: Frame | undefined): void => {
    const v = jsonValueOf(raw, key ?? '');
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') {
      if (!inArray) return;
    }
    if (frame) {
      if (frame.written) out.push(',');
      frame.written = true;
    }
    if (key !== null) out.push(`${JSON.stringify(key)}:`);
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') {
      out.push('null');
      return;
    }
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v));
      return;
    }
    if (Array.isArray(v)) {
      out.push('[');
      stack.push({ members: v.map((item) => [null, item]), next: 0, close: ']', written: false });
      return;
    }
    out.push('{');
    stack.push({ members: Object.entries(v), next: 0, close: '}', written: false });
  };
  write(null, value, true, undefined);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next === frame.members.length) {
      out.push(frame.close);
      stack.pop();
      continue;
    }
    const [key, member] = frame.members[frame.next] as [string | null, unknown];
    frame.next += 1;
    write(key, member, frame.close === ']', frame);
  }
  return out.join('');
}

/** The value JSON.stringify would serialise for `raw` (its toJSON result, if it has one). */
function jsonValueOf(raw: unknown, key: string): unknown {
  if (raw !== null && typeof raw === 'object' && typeof (raw as { toJSON?: unknown }).toJSON === 'function')
    return (raw as { toJSON: (key: string) => unknown }).toJSON(key);
  return raw;
}
