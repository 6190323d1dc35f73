// The replacement pattern of String.prototype.replace ($$, $&, $`, $', $1…$99, $<name>), expanded
// for one match. Done by hand so each match's replacement (and so its changed span) is known.

export function expandReplacement(template: string, m: RegExpMatchArray, text: string): string {
  if (!template.includes('$')) return template;
  const index = m.index ?? 0;
  const captures = m.length - 1;
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    const next = template[i + 1];
    if (c !== '$' || next === undefined) {
      out += c;
      continue;
    }
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '&') {
      out += m[0];
      i++;
    } else if (next === '`') {
      out += text.slice(0, index);
      i++;
    } else if (next === "'") {
      out += text.slice(index + m[0].length);
      i++;
    } else if (next >= '0' && next <= '9') {
      const two = template.slice(i + 1, i + 3);
      const twoN = /^\d\d$/.test(two) ? Number(two) : 0;
      const oneN = Number(next);
      if (twoN >= 1 && twoN <= captures) {
        out += m[twoN] ?? '';
        i += 2;
      } else if (oneN >= 1 && oneN <= captures) {
        out += m[oneN] ?? '';
        i++;
      } else out += '$';
    } else if (next === '<' && m.groups !== undefined) {
      const close = template.indexOf('>', i + 2);
      if (close === -1) out += '$';
      else {
        out += m.groups[template.slice(i + 2, close)] ?? '';
        i = close;
      }
    } else out += '$';
  }
  return out;
}
