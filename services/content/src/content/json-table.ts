/*
 * JsonContent::rootValueTable: how MediaWiki shows a JSON page (and action=parse of JSON text):
 * nested tables of keys and values, arrays boxed, strings quoted as they are. Text goes through
 * Html::element, which escapes & and < only.
 */

const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** FormatJson::encode of a scalar as PHP prints it (floats beyond 15 digits in exponent form, "1.0e+25"). */
function primitive(v: unknown): string {
  if (typeof v === 'string') return `"${v}"`;
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return String(v);
    const abs = Math.abs(v);
    if (abs >= 1e15 || (abs !== 0 && abs < 1e-4)) {
      const [mantissa = '', exp = ''] = v.toExponential().split('e');
      return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}e${exp}`;
    }
    return String(v);
  }
  return JSON.stringify(v);
}

function valueCell(v: unknown): string {
  if (Array.isArray(v)) return `<td>${arrayTable(v)}</td>`;
  if (v !== null && typeof v === 'object') return `<td>${objectTable(v as Record<string, unknown>)}</td>`;
  return `<td class="mw-json-value">${text(primitive(v))}</td>`;
}

function objectTable(o: Record<string, unknown>): string {
  const rows = Object.entries(o).map(([k, v]) => `<tr><th><span>${text(k)}</span></th>${valueCell(v)}</tr>`);
  if (rows.length === 0) rows.push('<tr><td class="mw-json-empty">Empty object</td></tr>');
  return `<table class="mw-json"><tbody>${rows.join('')}</tbody></table>`;
}

function arrayTable(a: readonly unknown[]): string {
  const rows = a.map((v) => `<tr>${valueCell(v)}</tr>`);
  if (rows.length === 0) rows.push('<tr><td class="mw-json-empty">Empty array</td></tr>');
  return `<table class="mw-json"><tbody>${rows.join('\n')}</tbody></table>`;
}

/** The HTML of JSON text, or undefined when it is not valid JSON (JsonContent::isValid). */
export function jsonTable(json: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) return arrayTable([value]);
  if (value !== null && typeof value === 'object') return objectTable(value as Record<string, unknown>);
  return `<table class="mw-json mw-json-single-value"><tbody><tr><td>${text(primitive(value))}</td></tr></tbody></table>`;
}
