// Stamped jars: find the placeholders of a jar once at upload (indexJar), send each download
// with them replaced and a signed entry added (stampJar), and read a leaked copy's stamps
// back (readStamps). Knows nothing of releases, licenses or storage: a file is anything that
// reads ranges (RandomAccessFile). docs/decisions.md "Stamped jars" has the design.
export { NotAZipError } from './not-a-zip-error.js';
export { bufferFile, type RandomAccessFile } from './random-access.js';
export { PLACEHOLDERS, type JarIndex, type Placeholder } from './jar-index.js';
export { indexJar } from './index-jar.js';
export { stampJar, type ExtraEntry } from './stamp-jar.js';
export { readStamps } from './read-stamps.js';
