// CSV as RFC 4180 describes it: fields separated by commas, records by CRLF,
// a field quoted when it holds a comma, a double quote, CR or LF, and a
// double quote inside a quoted field doubled.

/**
 * One field. `null`/`undefined` become an empty field; numbers are written
 * as JavaScript prints them.
 * @param {string|number|null|undefined} value
 */
export function csvField(value) {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A whole file: a header and records, each line ending in CRLF.
 * @param {readonly string[]} header
 * @param {ReadonlyArray<ReadonlyArray<string|number|null|undefined>>} records
 */
export function toCSV(header, records) {
  return [header, ...records].map((row) => row.map(csvField).join(",") + "\r\n").join("");
}

/**
 * Text typed by a person, made safe to open in a spreadsheet: a leading
 * `=`, `+`, `-`, `@`, tab or CR would make Excel or LibreOffice run it as a
 * formula (OWASP "CSV injection"), so such text gets a leading apostrophe.
 * @param {string} text
 */
export function spreadsheetSafe(text) {
  return /^[=+\-@\t\r]/.test(text) ? "'" + text : text;
}
