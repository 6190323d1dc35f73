// Text that leaves scion: secrets masked (the one redaction pass) and text from outside made safe for
// a terminal. Small and loaded at start-up by the CLI's edge.
export { makeRedactor, redactDeep, type Redactor } from '../redact.js';
export { terminalText, visible } from '../report/ansi.js';
export { num, plural } from '../util/plural.js';
