/**
 * The status page's stylesheet, inline (no build step, no asset route): readable tables on a wide
 * screen; on a narrow one (a phone) each row becomes a card of "label: value" lines, so nothing
 * scrolls sideways. States are colour and text both.
 */
export const STATUS_STYLE = `
:root { color-scheme: light dark; --muted: #667; --line: #ccd; --bad: #b3261e; --warn: #8a5a00; --good: #1e7a34; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 1rem; max-width: 80rem; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .25rem; }
.note, .summary, small { color: var(--muted); }
code { font-size: .9em; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; position: absolute; left: -9999px; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: break-word; }
th { font-weight: 600; white-space: nowrap; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: .6rem; border: 1px solid currentColor; font-size: .85em; }
.state-never .badge, .state-stale .badge, .health-disabled .badge, .health-failing .badge, .error { color: var(--bad); }
.state-behind .badge, .health-paused .badge { color: var(--warn); }
.state-fresh .badge, .health-healthy .badge { color: var(--good); }
@media (max-width: 720px) {
  body { padding: .75rem; }
  table.cards thead { display: none; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: 100%; }
  table.cards tr { border: 1px solid var(--line); border-radius: .5rem; margin: 0 0 .75rem; padding: .25rem .6rem; }
  table.cards td { display: flex; gap: .75rem; border: none; padding: .2rem 0; }
  table.cards td::before { content: attr(data-label); font-weight: 600; color: var(--muted); flex: 0 0 7.5rem; }
  table.cards td > .v { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
}
`;
