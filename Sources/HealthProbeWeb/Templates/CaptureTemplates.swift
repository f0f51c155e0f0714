/// The captures pages: every capture, and what changed between two.
enum CaptureTemplates {
    static let captures = """
        {{<layout}}{{$content}}{{#body}}
        <p><a href="/archive">← Archive Status</a></p>
        <h1>Captures</h1>
        <p class="muted">Each check stores what it read as a capture. Compare two to see, by sample type, which records only the later one holds and which the earlier one held that are gone.</p>
        <form method="get" action="/captures/compare" class="inline">
        <label for="compare-from">Compare capture</label><select id="compare-from" name="from">{{#fromChoices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/fromChoices}}</select>
        <label for="compare-to">with</label><select id="compare-to" name="to">{{#toChoices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/toChoices}}</select>
        <button type="submit">Compare</button></form>
        <div class="scroll"><table class="captures"><thead><tr><th scope="col">Capture</th><th scope="col">From</th><th scope="col">Export day (UTC)</th><th scope="col">Records read</th><th scope="col">New</th><th scope="col">Gone</th><th scope="col">Anomalies</th><th scope="col"></th></tr></thead><tbody>
        {{#rows}}<tr data-capture="{{id}}" data-records="{{recordsValue}}" data-export-day="{{exportDay}}"><th scope="row" data-label="Capture">{{id}}</th><td data-label="From">{{origin}}</td><td data-label="Export day (UTC)">{{exportDay}}</td><td data-label="Records read">{{records}}</td><td data-label="New">{{new}}</td><td data-label="Gone">{{gone}}</td><td data-label="Anomalies">{{anomalies}}</td>
        <td>{{#compareHref}}<a href="{{compareHref}}">What changed</a>{{/compareHref}}{{#setAsideReason}}<span class="muted">Set aside: {{setAsideReason}}. Compared with nothing; its anomalies are withdrawn.</span>{{/setAsideReason}}</td></tr>{{/rows}}
        </tbody></table></div>
        {{/body}}{{/content}}{{/layout}}
        """

    static let comparison = """
        {{<layout}}{{$content}}{{#body}}
        <p><a href="/captures">← Captures</a></p>
        <h1>Capture {{from}} → capture {{to}}{{#typeName}}: {{typeName}} by day{{/typeName}}</h1>
        <p><bdi>{{summary}}</bdi></p>
        {{#differentOrigins}}<p class="flash role-warning">These captures come from different ways in (the iPhone's live checks and an export or backup), whose records the archive keeps apart: every record of one is missing from the other.</p>{{/differentOrigins}}
        {{#typeName}}<p><a href="{{allTypesHref}}">All sample types</a></p>{{/typeName}}
        {{^empty(rows)}}<div class="scroll"><table class="comparison"><thead><tr><th scope="col">{{#typeName}}Day ({{timeZone}}){{/typeName}}{{^typeName}}Sample type{{/typeName}}</th><th scope="col">New in {{to}}</th><th scope="col">Gone since {{from}}</th>{{^typeName}}<th scope="col"></th>{{/typeName}}</tr></thead><tbody>
        {{#rows}}<tr {{{dataAttributes}}}><th scope="row">{{#figuresHref}}<a href="{{figuresHref}}">{{label}}</a>{{/figuresHref}}{{^figuresHref}}{{label}}{{/figuresHref}}</th><td data-label="New in {{to}}">{{new}}</td><td data-label="Gone since {{from}}">{{gone}}</td>{{#dayHref}}<td><a href="{{dayHref}}">By day</a></td>{{/dayHref}}</tr>{{/rows}}
        </tbody></table></div>{{/empty(rows)}}
        {{#empty(rows)}}<p class="muted">Both captures hold the same records{{#typeName}} of this type{{/typeName}}.</p>{{/empty(rows)}}
        <h2>What the checks in between found</h2>
        {{^empty(anomalies)}}<ul class="rows">{{#anomalies}}{{> anomalyRow}}{{/anomalies}}</ul>{{/empty(anomalies)}}
        {{#empty(anomalies)}}<p class="muted">No anomaly: the changes were updates the checks explained.</p>{{/empty(anomalies)}}
        <h2>Each side as a file</h2>
        <p>Write what a capture held with the command line:</p>
        <ul><li><code>healthprobe export{{archiveOption}} --as-of-capture {{from}} --format csv --output capture-{{from}}.csv</code></li>
        <li><code>healthprobe export{{archiveOption}} --as-of-capture {{to}} --format csv --output capture-{{to}}.csv</code></li></ul>
        {{/body}}{{/content}}{{/layout}}
        """
}
