/**
 * Strict readers of what the CSV and JUnit formats write, for the tests: CSV as
 * RFC 4180 says (CRLF after every record, quotes only around a whole field,
 * doubled inside), and XML through Python's expat parser, which refuses any
 * document that is not well-formed.
 */
import { spawnSync } from 'node:child_process';

/** The records of a CSV text; throws on anything RFC 4180 does not allow. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error('CSV: a quoted field never closes');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          field += text[i++];
        }
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          if (text[i] === '"') throw new Error(`CSV: a quote inside an unquoted field, record ${records.length + 1}`);
          field += text[i++];
        }
      }
      fields.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text.startsWith('\r\n', i)) {
        i += 2;
        break;
      }
      throw new Error(`CSV: record ${records.length + 1} does not end with CRLF at ${i}`);
    }
    records.push(fields);
  }
  return records;
}

export interface XmlElement {
  tag: string;
  attributes: Record<string, string>;
  /** The text before the first child element ('' when none). */
  text: string;
  children: XmlElement[];
}

const TO_JSON = `
import sys, json, xml.etree.ElementTree as ET
def walk(e):
    return {"tag": e.tag, "attributes": dict(e.attrib), "text": e.text or "", "children": [walk(c) for c in e]}
print(json.dumps(walk(ET.fromstring(sys.stdin.buffer.read()))))
`;

/** The document's root element; throws with the parser's message when the document is not well-formed. */
export function parseXml(text: string): XmlElement {
  const parsed = spawnSync('python3', ['-c', TO_JSON], { input: Buffer.from(text, 'utf8'), encoding: 'utf8' });
  if (parsed.error) throw parsed.error;
  if (parsed.status !== 0) throw new Error(`not well-formed XML: ${parsed.stderr.trim().split('\n').at(-1)}`);
  return JSON.parse(parsed.stdout) as XmlElement;
}
