import Hummingbird

/// The dashboard's one style sheet, served from a route (no files beside the binary): system
/// font, an 8-point spacing grid, colours by role with a dark variant, visible focus.
enum StyleSheet {
    /// The one path served without the session cookie: it holds no data, and the pages that
    /// ask for the launch address need it too.
    static let path = "/static/style.css"

    static func response() -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/css; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: css)))
    }

    static let css = """
        :root { --bg: #f6f7f9; --surface: #ffffff; --text: #1d1f23; --muted: #5b616b; --line: #d9dde3;
          --healthy: #1f7a3a; --warning: #9a5b00; --critical: #b3261e; --neutral: #5b616b; --accent: #1f5fbf;
          --healthy-bg: #e6f4ea; --warning-bg: #fff4e0; --critical-bg: #fdecea; --neutral-bg: #eef0f3; --surplus: #7048b8;
          color-scheme: light dark; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #111317; --surface: #1b1e24; --text: #e8eaed; --muted: #a5abb5; --line: #333842;
            --healthy: #6fcf8b; --warning: #f2b45a; --critical: #ff8a80; --neutral: #a5abb5; --accent: #8ab4f8;
            --healthy-bg: #16301f; --warning-bg: #33260f; --critical-bg: #3a1a18; --neutral-bg: #23272e; --surplus: #c3a6ff; } }
        * { box-sizing: border-box; }
        html { font-size: 100%; }
        body { margin: 0; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", system-ui, sans-serif;
          background: var(--bg); color: var(--text); line-height: 1.5; }
        a { color: var(--accent); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; top: 8px; background: var(--surface); padding: 8px 16px; }
        .skip:focus { left: 8px; }
        header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 16px; padding: 8px 24px;
          background: var(--surface); border-bottom: 1px solid var(--line); }
        .brand { display: flex; align-items: center; gap: 8px; font-weight: 600; margin: 0; color: var(--healthy); }
        .brand span { color: var(--text); }
        nav ul { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; margin: 0; padding: 0; }
        nav a { display: flex; align-items: center; gap: 8px; padding: 8px 16px; border-radius: 8px;
          text-decoration: none; color: var(--text); }
        nav a[aria-current="page"] { background: var(--neutral-bg); font-weight: 600; }
        .icon { width: 1.25em; height: 1.25em; flex: none; }
        main { max-width: 72rem; margin: 0 auto; padding: 24px; }
        footer { max-width: 72rem; margin: 0 auto; padding: 0 24px 24px; color: var(--muted); font-size: 0.875rem; }
        h1 { font-size: 1.75rem; margin: 0 0 16px; display: flex; gap: 8px; align-items: center; }
        h2 { font-size: 1.25rem; margin: 24px 0 8px; }
        .muted { color: var(--muted); }
        .card { background: var(--surface); border: 1px solid var(--line); border-radius: 16px; padding: 16px 24px; }
        section.card + section.card { margin-top: 16px; }
        .notice { margin-bottom: 24px; }
        .status { display: flex; flex-wrap: wrap; align-items: center; gap: 16px; padding: 24px; border-radius: 16px;
          border: 1px solid var(--line); background: var(--surface); }
        .status > .icon { width: 4rem; height: 4rem; }
        .status-text { flex: 1 1 16rem; }
        .status-text h2 { margin: 0; font-size: 1.5rem; }
        .status.role-healthy { background: var(--healthy-bg); } .status.role-healthy > .icon { color: var(--healthy); }
        .status.role-warning { background: var(--warning-bg); } .status.role-warning > .icon { color: var(--warning); }
        .status.role-critical { background: var(--critical-bg); } .status.role-critical > .icon { color: var(--critical); }
        .status.role-neutral > .icon { color: var(--neutral); }
        .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: 16px; list-style: none;
          padding: 0; margin: 24px 0; }
        .cards .card p { margin: 0; }
        .cards .card { container-type: inline-size; }
        /* A number is never broken across lines: it shrinks with its card (7,510,575 fits a phone's). */
        .figure { font-size: clamp(1.25rem, 15cqi, 2rem); font-weight: 600; font-variant-numeric: tabular-nums;
          white-space: nowrap; overflow-wrap: normal; }
        .remark { border-left: 4px solid var(--warning); padding-left: 12px; }
        .badge { display: inline-block; padding: 0 8px; border-radius: 8px; font-size: 0.875rem; font-weight: 600;
          border: 1px solid currentColor; }
        .badge.role-healthy { color: var(--healthy); } .badge.role-warning { color: var(--warning); }
        .badge.role-critical { color: var(--critical); } .badge.role-neutral { color: var(--neutral); }
        .rows { list-style: none; padding: 0; margin: 0; display: grid; gap: 8px; }
        .row { display: flex; align-items: center; gap: 8px; background: var(--surface); border: 1px solid var(--line);
          border-radius: 12px; padding: 8px 16px; }
        .row-link { flex: 1; display: flex; gap: 16px; align-items: center; color: var(--text); text-decoration: none; }
        .row-main { flex: 1; }
        .row-date { color: var(--muted); font-size: 0.875rem; text-align: right; }
        button, .button { font: inherit; display: inline-block; padding: 8px 16px; border-radius: 8px; cursor: pointer;
          border: 1px solid var(--line); background: var(--surface); color: var(--text); text-decoration: none; }
        .primary { background: var(--accent); border-color: var(--accent); color: var(--bg); }
        .danger { border-color: var(--critical); color: var(--critical); }
        .card.danger { margin-top: 32px; }
        .chips { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 16px; }
        .chip { padding: 0 8px; border-radius: 16px; border: 1px solid var(--line); text-decoration: none; color: var(--text);
          font-size: 0.875rem; white-space: nowrap; }
        .chip[aria-current="true"] { background: var(--accent); color: var(--bg); border-color: var(--accent); }
        .inline { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 8px 0 16px; }
        select, textarea, input[type=file], input[type=date], input:not([type]), input[type=text] { font: inherit;
          padding: 8px; border-radius: 8px; border: 1px solid var(--line); background: var(--surface); color: var(--text); }
        .inline input:not([type]), .inline input[type=text] { min-width: min(16rem, 100%); }
        .stacked label { display: block; margin: 16px 0 4px; }
        .stacked select, .stacked textarea { width: 100%; max-width: 40rem; box-sizing: border-box; }
        .check { display: inline-flex; align-items: center; gap: 8px; margin: 0 16px 8px 0; }
        fieldset { border: 1px solid var(--line); border-radius: 12px; padding: 8px 16px 16px; margin: 0 0 16px; }
        legend { font-weight: 600; padding: 0 8px; }
        table { border-collapse: collapse; width: 100%; background: var(--surface); }
        th, td { text-align: left; padding: 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.875rem; overflow-wrap: anywhere; }
        td, dd, li, p { overflow-wrap: break-word; }
        input, select, button { max-width: 100%; }
        .evidence td code, .evidence th code { white-space: pre-wrap; word-break: break-word; }
        .facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 8px 24px; }
        .facts dt { color: var(--muted); } .facts dd { margin: 0; min-width: 0; }
        .actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 16px 0; }
        .actions form { margin: 0; }
        .trail { list-style: none; padding: 0; } .trail li { margin-bottom: 8px; } .trail time { color: var(--muted); font-variant-numeric: tabular-nums; }
        .pages { display: flex; gap: 16px; }
        .flash { background: var(--neutral-bg); border-radius: 8px; padding: 8px 16px; }
        .error { background: var(--critical-bg); color: var(--critical); border-radius: 8px; padding: 8px 16px; }
        .drop { display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; padding: 32px; border: 2px dashed var(--line); border-radius: 16px; margin-bottom: 8px; }
        progress { width: 100%; height: 16px; }
        .chart-figure { margin: 0; }
        .chart { display: block; width: 100%; height: auto; min-height: 8rem; color: var(--text); }
        .axis-label { margin: 0; font-size: 0.75rem; color: var(--muted); font-variant-numeric: tabular-nums; }
        .axis-dates { display: flex; justify-content: space-between; margin: 0 0 8px; font-size: 0.75rem; color: var(--muted); }
        .scroll { overflow-x: auto; }
        table.records td, table.records code { white-space: nowrap; overflow-wrap: normal; }
        .chart .dup { fill: var(--surplus); } .legend .dup::before { background: var(--surplus); }
        .chart .bar { fill: var(--accent); } .chart .lost { fill: var(--critical); } .chart .late { fill: var(--warning); }
        .chart .sev-critical { fill: var(--critical); } .chart .sev-warning { fill: var(--warning); } .chart .sev-info { fill: var(--neutral); }
        .chart .axis { stroke: var(--line); } 
        .legend { display: flex; flex-wrap: wrap; gap: 16px; font-size: 0.875rem; color: var(--muted); }
        .legend span::before { content: ""; display: inline-block; width: 12px; height: 12px; margin-right: 8px; border-radius: 2px; vertical-align: -1px; }
        .legend .bar::before { background: var(--accent); } .legend .lost::before { background: var(--critical); }
        .legend .late::before { background: var(--warning); } .legend .sev-critical::before { background: var(--critical); }
        .legend .sev-warning::before { background: var(--warning); } .legend .sev-info::before { background: var(--neutral); }
        figure.trace { margin: 0 0 16px; }
        .ecg { display: block; width: 100%; height: 10rem; background: var(--surface); }
        .ecg .grid .minor { stroke: var(--line); stroke-width: 0.5; opacity: 0.5; }
        .ecg .grid .major, .ecg .grid .zero { stroke: var(--line); stroke-width: 1; }
        .ecg .trace { fill: none; stroke: var(--critical); stroke-width: 1.2; vector-effect: non-scaling-stroke; }
        .route { display: block; width: min(100%, 24rem); height: auto; background: var(--surface); border: 1px solid var(--line); border-radius: 8px; }
        .route polyline { fill: none; stroke-linejoin: round; stroke-linecap: round; vector-effect: non-scaling-stroke; }
        .route .before { stroke: var(--muted); stroke-width: 4; opacity: 0.5; } .route .after { stroke: var(--accent); stroke-width: 2; }
        .route .lost { fill: var(--critical); }
        details { margin-top: 8px; }
        @media (max-width: 40rem) { .row { flex-wrap: wrap; } .row-link { flex-direction: column; align-items: flex-start; flex-basis: 100%; gap: 4px; }
          .row-date { text-align: left; } main { padding: 16px; } .drop { padding: 16px; } header.top { padding: 8px 16px; }
          .facts { grid-template-columns: minmax(0, 1fr); gap: 0; } .facts dd { margin-bottom: 8px; }
          /* A table too wide for a phone reads as one block a row, each value under its column's name. */
          .scroll table, .scroll tbody, .scroll tr, .scroll td, .scroll tbody th { display: block; }
          .scroll thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
          .scroll tr { padding: 8px 0; border-bottom: 1px solid var(--line); }
          .scroll td, .scroll tbody th { border: 0; padding: 2px 0; text-align: left; }
          .scroll td { display: inline-block; margin-right: 16px; }
          .scroll [data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-weight: normal; }
          .scroll td:empty { display: none; }
          table.records td, table.records code { white-space: normal; } }
        """
}
