/** Colours of the 0–5 scale (Ruim … Incrível, core.md §9). */
export const SCORE_COLOR = ['red', 'orange', 'yellow', 'lime', 'teal', 'green'];
export const SCORES = [0, 1, 2, 3, 4, 5];
