/** MediaWiki's ISO 8601 form: second resolution, "Z". */
export const isoTimestamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
