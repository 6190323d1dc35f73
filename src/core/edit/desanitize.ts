// The Claude API shortens some tags in what the model sees; the model then writes the short forms.
// When old_string does not match as given, the long forms are tried, and new_string gets the same.

const PAIRS: readonly (readonly [string, string])[] = [
  ['<fnr>', '<function_results>'],
  ['<n>', '<name>'],
  ['</n>', '</name>'],
  ['<o>', '<output>'],
  ['</o>', '</output>'],
  ['<e>', '<error>'],
  ['</e>', '</error>'],
  ['<s>', '<system>'],
  ['</s>', '</system>'],
  ['<r>', '<result>'],
  ['</r>', '</result>'],
  ['< META_START >', '<META_START>'],
  ['< META_END >', '<META_END>'],
  ['< EOT >', '<EOT>'],
  ['< META >', '<META>'],
  ['< SOS >', '<SOS>'],
  ['\n\nH:', '\n\nHuman:'],
  ['\n\nA:', '\n\nAssistant:'],
];

export interface Desanitized {
  readonly result: string;
  /** The pairs that changed the input, to be applied to new_string alike. */
  readonly applied: readonly (readonly [string, string])[];
}

export function desanitize(s: string): Desanitized {
  let result = s;
  const applied: (readonly [string, string])[] = [];
  for (const pair of PAIRS) {
    if (!result.includes(pair[0])) continue;
    result = result.split(pair[0]).join(pair[1]);
    applied.push(pair);
  }
  return { result, applied };
}

export function applyPairs(s: string, pairs: readonly (readonly [string, string])[]): string {
  let result = s;
  for (const [from, to] of pairs) result = result.split(from).join(to);
  return result;
}
