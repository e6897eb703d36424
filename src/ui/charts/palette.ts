// How the chart lines look: the colours of runs (by number), the dashes that tell a run's
// metrics apart, and the colours of the lines that are no run of the page (chance, curriculum
// markers, a lesson's recorded runs, the loaded model's own recorded run).

/** Colours of runs by number: #1 → the first, #2 → the second, … */
export const RUN_COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];
export const DASHES = ['', '7 4', '2 3', '9 3 2 3'];
export const CHANCE_COLOR = '#b45309';
export const REFERENCE_COLOR = '#6b7280';
export const MARKER_COLOR = '#6b7280';
/** The loaded model's own recorded run: drawn darker than the others, up to its step. */
export const OWN_RUN_COLOR = '#111827';
