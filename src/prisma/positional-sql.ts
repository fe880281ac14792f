/** SQL text with `$1, $2, …` where a tagged template had its `${…}` values (which are sent as parameters). */
export function positional(strings: TemplateStringsArray | readonly string[]): string {
  let text = strings[0];
  for (let i = 1; i < strings.length; i++) text += `$${i}${strings[i]}`;
  return text;
}
