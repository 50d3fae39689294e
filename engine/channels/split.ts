/**
 * Splits a reply into messages a channel accepts (its `capabilities.maxTextLength`; Telegram:
 * 4096 characters, Bot API `sendMessage`). Cuts at the last paragraph break, else line break, else
 * space before the limit, so words stay whole; a single word longer than the limit is cut hard.
 * Lengths are counted in UTF-16 code units, as Telegram counts them; a surrogate pair is never cut.
 * @returns the parts, in order, none empty and none longer than `max`; `[]` for blank text.
 */
export function splitText(text: string, max: number): string[] {
  if (max < 1) throw new RangeError('max must be at least 1');
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = window.lastIndexOf('\n\n');
    if (cut < max / 2) cut = window.lastIndexOf('\n');
    if (cut < max / 2) cut = window.lastIndexOf(' ');
    if (cut <= 0) {
      cut = max;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut--; // keep a surrogate pair together
    }
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) parts.push(rest);
  return parts.filter((p) => p.length > 0);
}
