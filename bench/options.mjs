/**
 * `--key value`, `--key=value` and bare `--flag` (true) into a copy of `defaults`; an option
 * not in `defaults` (or `flags`) is an error. Values stay strings: each script converts its own.
 */
export function parseOptions(argv, defaults, flags = ['json']) {
  const o = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected argument ${argv[i]}`);
    let [k, v] = argv[i].slice(2).split(/=(.*)/s);
    if (v === undefined) v = argv[i + 1] === undefined || argv[i + 1].startsWith('--') ? true : argv[++i];
    if (!(k in defaults) && !flags.includes(k)) throw new Error(`unknown option --${k}`);
    o[k] = v;
  }
  return o;
}

/** `1,2,4` → [1, 2, 4]. */
export const numberList = (s) => String(s).split(',').map(Number);
