// JSON request bodies. JSON.parse turns every number into a double, so 42.0 reads as 42 and
// 9007199254740993 as ...992, while ThingsBoard keeps the type (DOUBLE vs LONG) and every digit.
// One cheap pass over the text decides: bodies whose numbers are all plain (json-number.ts), the
// common small telemetry body among them, take the native JSON.parse; the others go through our
// lossless parser, which keeps the literals. The same pass enforces the nesting limit, so nothing
// downstream (validation, storage, serialisation) ever sees a body deeper than MAX_JSON_DEPTH.
import { badRequest } from './errors.js';
import { lexed, lexNumber } from './json-number.js';
import { depthError, MAX_JSON_DEPTH, parseLossless, stringEnd } from './json-lossless.js';

/**
 * True when JSON.parse keeps everything of the text (every number literal is plain); throws when
 * the nesting is deeper than the limit. Exact for valid JSON; for invalid JSON, JSON.parse fails.
 */
function plainScan(text: string): boolean {
  const checkDepth = text.length > MAX_JSON_DEPTH; // a shorter text cannot nest deeper
  let depth = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      if (i < 0) return true;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      i = lexNumber(text, i);
      if (!lexed.plain) return false;
    } else {
      if (checkDepth) {
        if (c === 0x7b || c === 0x5b) {
          if (++depth > MAX_JSON_DEPTH) throw depthError(depth);
        } else if (c === 0x7d || c === 0x5d) depth--;
      }
      i++;
    }
  }
  return true;
}

export function parseJsonBody(text: string): unknown {
  if (!plainScan(text)) return parseLossless(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`Invalid JSON body: ${(error as Error).message}`);
  }
}
