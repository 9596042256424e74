// How the designer loop prints: each stage on one line with its time since the save.

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(2)} s`.padStart(7);

/** `  lint      0.31 s  ✔ clean`: the stage, its time since the save, what it found. */
export const stageLine = (stage, since, text) => `  ${stage.padEnd(8)} ${seconds(since)}  ${text}`;

/** Every line of `text` indented. */
export const indent = (text, by = '    ') => text.split('\n').map((line) => `${by}${line}`).join('\n');

/** `1 open page`, `2 open pages`. */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
