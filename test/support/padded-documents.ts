import { readFileSync } from "node:fs";

/**
 * A publisher's recorded document MODIFIED to a given size by repeating its own records, each copy's identity made
 * unique (`#copy-<n>` appended): generated at run time to measure and test size ceilings, never stored or presented as
 * the publisher's. Feeds repeat `<item>`/`<entry>` elements, iCalendar calendars `VEVENT`s, JSON calendars records.
 */
export function paddedDocument(path: string, targetBytes: number): Buffer {
  const text = readFileSync(path, "utf8");
  const shape = shapeOf(path, text);
  const first = text.indexOf(shape.open);
  const last = text.lastIndexOf(shape.close) + shape.close.length;
  if (first < 0 || last < shape.close.length) throw new Error(`${path}: no records to repeat`);
  const [head, records, tail] = [text.slice(0, first), text.slice(first, last), text.slice(last)];
  const parts = [head];
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail);
  for (let copy = 0; size < targetBytes; copy++) {
    const piece = `${shape.separator(copy)}${records.replace(shape.identity, (_whole, before: string, id: string) => `${before}${id}#copy-${copy}`)}`;
    parts.push(piece);
    size += Buffer.byteLength(piece);
  }
  parts.push(tail);
  return Buffer.from(parts.join(""), "utf8");
}

function shapeOf(path: string, text: string) {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  if (path.endsWith(".ics"))
    return {
      open: "BEGIN:VEVENT",
      close: "END:VEVENT",
      identity: /^(UID:)([^\r\n]*)/gm,
      separator: (copy: number) => (copy === 0 ? "" : eol),
    };
  if (path.endsWith(".json"))
    return {
      open: "{",
      close: "}",
      identity: /("recordid"\s*:\s*")([^"]*)/g,
      separator: (copy: number) => (copy === 0 && text.trim().startsWith("[") ? "" : ","),
    };
  const atom = text.includes("<entry>");
  return atom
    ? { open: "<entry>", close: "</entry>", identity: /(<id>)([^<]*)/g, separator: () => "" }
    : { open: "<item>", close: "</item>", identity: /(<guid>)([^<]*)/g, separator: () => "" };
}
