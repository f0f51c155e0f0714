/// The five screens' templates.
enum ScreenTemplates {
    static let dashboard = """
        {{<layout}}{{$content}}{{#body}}
        <h1>Dashboard</h1>
        {{#checkRunning}}<p class="flash" role="status">A check is running. <a href="{{checkRunning}}">Follow it</a>.</p>{{/checkRunning}}
        {{^hasArchive}}<section class="card notice" aria-labelledby="first-check"><h2 id="first-check">No check yet</h2>
        <p>{{firstCheckHint}}</p><p class="muted">Or run <code>healthprobe check export.zip</code> in a terminal.</p>
        <p><a class="button primary" href="/check">Check Now</a></p></section>{{/hasArchive}}
        {{#hasArchive}}<section class="status role-{{statusRole}}" aria-labelledby="status-title">
        {{{statusIcon}}}
        <div class="status-text"><h2 id="status-title">{{statusTitle}}</h2><p>{{statusDetail}}</p>
        <p class="muted">{{#lastChecked}}Last checked {{lastChecked}} ({{lastCheckedRelative}}).{{/lastChecked}}{{^lastChecked}}Never checked.{{/lastChecked}}</p></div>
        <a class="button primary" href="/check">Check Now</a>
        </section>
        <section aria-label="Summary"><ul class="cards">
        <li class="card"><p class="figure">{{recordsTracked}}</p><p>{{recordsLabel}}</p></li>
        <li class="card"><p class="figure">{{anomaliesAllTime}}</p><p>{{anomaliesLabel}}</p></li>
        <li class="card"><p class="figure">{{openAnomalies}}</p><p>unresolved</p></li>
        <li class="card"><p class="figure">{{typesHeld}}</p><p>{{typesLabel}}</p></li>
        </ul></section>
        <section aria-labelledby="alerts-title"><h2 id="alerts-title">Recent alerts</h2>
        {{^empty(alerts)}}<ul class="rows">{{#alerts}}{{> anomalyRow}}{{/alerts}}</ul>
        <p><a href="/anomalies">All anomalies</a></p>{{/empty(alerts)}}
        {{#empty(alerts)}}<p class="muted">No unresolved anomaly at or above {{threshold}}.</p>{{/empty(alerts)}}
        </section>{{/hasArchive}}
        {{#hasChart}}<section aria-labelledby="records-title"><h2 id="records-title">Records per day</h2>
        <form method="get" action="/" class="inline"><label for="chart-type">Sample type</label>
        <select id="chart-type" name="type">{{#chartTypes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/chartTypes}}</select>
        {{#period}}<label for="chart-from">From</label><input type="date" id="chart-from" name="from" value="{{from}}">
        <label for="chart-to">to</label><input type="date" id="chart-to" name="to" value="{{to}}">{{/period}}
        <button type="submit">Show</button></form>
        {{#period}}<nav aria-label="Period" class="chips">{{#previousHref}}<a class="chip" rel="prev" href="{{previousHref}}">← Earlier</a>{{/previousHref}}
        {{#shortcuts}}<a class="chip" href="{{href}}"{{#selected}} aria-current="true"{{/selected}}>{{label}}</a>{{/shortcuts}}
        {{#nextHref}}<a class="chip" rel="next" href="{{nextHref}}">Later →</a>{{/nextHref}}</nav>{{/period}}
        {{{recordsChart}}}
        {{#period}}<form method="get" action="/day" class="inline"><label for="day-date">A day's figures, as Health combines sources</label>
        <input type="date" id="day-date" name="date" value="{{to}}"><button type="submit">Show the day</button></form>{{/period}}
        </section>{{/hasChart}}
        {{#hasTimeline}}<section aria-labelledby="timeline-title"><h2 id="timeline-title">Anomalies by the days they affect</h2>
        {{{timelineChart}}}</section>{{/hasTimeline}}
        {{/body}}{{/content}}{{/layout}}
        """

    static let anomalies = """
        {{<layout}}{{$content}}{{#body}}
        <h1>Anomalies</h1>
        <nav aria-label="Filter by severity" class="chips">
        {{#severityChips}}<a class="chip" href="{{href}}"{{#selected}} aria-current="true"{{/selected}}>{{label}}</a>{{/severityChips}}
        </nav>
        <form method="get" action="/anomalies" class="inline">
        {{#severity}}<input type="hidden" name="severity" value="{{severity}}">{{/severity}}
        <label for="type-filter">Type</label>
        <select id="type-filter" name="type"><option value="">All types</option>
        {{#typeOptions}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/typeOptions}}</select>
        <label class="check"><input type="checkbox" name="resolved" value="1"{{#includeResolved}} checked{{/includeResolved}}> Show resolved</label>
        <button type="submit">Filter</button>
        </form>
        {{^empty(rows)}}<ul class="rows" aria-label="Anomalies, most recent first">{{#rows}}{{> anomalyRow}}{{/rows}}</ul>{{/empty(rows)}}
        {{#empty(rows)}}<p class="muted">No anomaly matches.</p>{{/empty(rows)}}
        {{/body}}{{/content}}{{/layout}}
        """

    static let anomalyDetail = """
        {{<layout}}{{$content}}{{#body}}
        <p><a href="/anomalies">← Anomalies</a></p>
        <h1>{{{detailIcon}}} Anomaly {{id}}: {{heading}}</h1>
        <p><span class="badge role-{{severityRole}}">{{severityTitle}}</span>{{#resolved}} <span class="badge role-neutral">Resolved</span>{{/resolved}}</p>
        <p><bdi>{{summary}}</bdi></p>
        {{^empty(recovery)}}<p class="muted" data-role="recovery">{{#recovery}}{{#code}}<code>{{text}}</code>{{/code}}{{^code}}{{text}}{{/code}}{{/recovery}}</p>{{/empty(recovery)}}
        <dl class="facts"><dt>State</dt><dd data-role="state">{{anomalyState}}</dd><dt>Detected</dt><dd>{{detectedAt}}</dd><dt>In</dt><dd>{{capture}}</dd>
        <dt>Sample type</dt><dd><code>{{sampleType}}</code></dd><dt>Records</dt><dd>{{recordCount}}</dd></dl>
        {{#chart}}<section aria-labelledby="where-title"><h2 id="where-title">Where it happened</h2>
        <p class="muted">{{sampleTypeName}} from {{chartFrom}} to {{chartTo}}: what the last capture holds, and this anomaly's records. <a href="{{dashboardHref}}">On the dashboard chart</a></p>
        {{{chart}}}</section>{{/chart}}
        {{^empty(traces)}}<section aria-labelledby="traces-title"><h2 id="traces-title">The recordings</h2>
        {{#traces}}<figure class="trace">{{{svg}}}<figcaption class="muted">{{caption}}</figcaption></figure>{{/traces}}</section>{{/empty(traces)}}
        {{^empty(routes)}}<section aria-labelledby="routes-title"><h2 id="routes-title">The routes</h2>
        {{#routes}}<figure class="trace">{{{svg}}}<figcaption class="muted">{{caption}}</figcaption></figure>{{/routes}}</section>{{/empty(routes)}}
        {{#revealToDraw}}<p class="muted">Reveal values to draw what changed: these are ECG recordings or routes, which say where someone was and how their heart beat.</p>{{/revealToDraw}}
        <h2>Evidence</h2>
        <div class="scroll"><table class="evidence"><thead><tr><th scope="col">Evidence</th><th scope="col">Value</th></tr></thead><tbody>
        {{#evidence}}<tr data-key="{{key}}"><th scope="row">{{label}}</th><td><bdi><code>{{value}}</code></bdi></td></tr>{{/evidence}}
        </tbody></table></div>
        <div class="actions">
        <a class="button" href="/anomalies/{{id}}/report.md" download>Share as Markdown</a>
        {{^resolved}}<form method="post" action="/anomalies/{{id}}/resolve"><input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="return" value="/anomalies/{{id}}"><button type="submit" class="primary">Mark Resolved</button></form>{{/resolved}}
        {{#resolved}}<form method="post" action="/anomalies/{{id}}/reopen"><input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="return" value="/anomalies/{{id}}"><button type="submit">Reopen</button></form>{{/resolved}}
        </div>
        <h2 id="records">Records ({{#recordRange}}{{recordRange}}{{/recordRange}}{{^recordRange}}{{recordsShown}}{{/recordRange}} of {{recordTotal}})</h2>
        {{^valuesRevealed}}{{^empty(records)}}<form method="post" action="/anomalies/{{id}}/reveal?page={{page}}" class="inline">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <p class="muted">Health values are hidden. They are shown on this page only, after you ask.</p>
        <button type="submit">Reveal values</button></form>{{/empty(records)}}{{/valuesRevealed}}
        {{^empty(records)}}<div class="scroll"><table class="records"><thead><tr><th scope="col">Role</th><th scope="col">Start</th><th scope="col">End</th><th scope="col">Source</th>{{#valuesRevealed}}<th scope="col">Value</th>{{/valuesRevealed}}</tr></thead><tbody>
        {{#records}}<tr><td data-label="Role">{{role}}</td><td data-label="Start"><code>{{start}}</code></td><td data-label="End"><code>{{end}}</code></td><td data-label="Source"><bdi>{{source}}</bdi></td>{{#valuesRevealed}}<td data-label="Value"><code>{{value}}</code></td>{{/valuesRevealed}}</tr>{{/records}}
        </tbody></table></div>{{/empty(records)}}
        {{#empty(records)}}<p class="muted">This anomaly names no individual records.</p>{{/empty(records)}}
        {{#previousHref}}<a class="button" href="{{previousHref}}" rel="prev">Previous records</a>{{/previousHref}} {{#nextHref}}<a class="button" href="{{nextHref}}" rel="next">Next records</a>{{/nextHref}}
        {{/body}}{{/content}}{{/layout}}
        """

    static let audit = """
        {{<layout}}{{$content}}{{#body}}
        <h1>Audit Trail</h1>
        <p class="actions"><a class="button" href="/audit.json" download>Export as JSON</a></p>
        <nav aria-label="Filter by event type" class="chips">
        <a class="chip" href="/audit"{{^event}} aria-current="true"{{/event}}>All ({{total}})</a>
        {{#chips}}<a class="chip" href="/audit?event={{event}}"{{#selected}} aria-current="true"{{/selected}}>{{title}} ({{count}})</a>{{/chips}}
        </nav>
        <ul class="trail" aria-label="Audit entries, newest first">
        {{#rows}}<li><time>{{at}}</time> <span class="chip static">{{eventTitle}}</span> <bdi>{{message}}</bdi></li>{{/rows}}
        </ul>
        {{#empty(rows)}}<p class="muted">No entry.</p>{{/empty(rows)}}
        <nav aria-label="Pages" class="pages">{{#previousHref}}<a href="{{previousHref}}">Newer</a>{{/previousHref}}
        <span>Page {{page}} of {{pageCount}}</span>{{#nextHref}}<a href="{{nextHref}}">Older</a>{{/nextHref}}</nav>
        {{/body}}{{/content}}{{/layout}}
        """

    static let archive = """
        {{<layout}}{{$content}}{{#body}}
        <h1>Archive Status</h1>
        <section class="card"><h2>{{{archiveIcon}}} The archive</h2>
        <dl class="facts">
        <dt>File</dt><dd><code>{{path}}</code></dd>
        <dt>Size</dt><dd>{{size}}</dd>
        <dt>File integrity</dt><dd>{{#integrity}}<span class="badge role-{{integrityRole}}">{{integrity}}</span> checked {{integrityCheckedAt}}{{/integrity}}{{^integrity}}never checked: the button below reads every page{{/integrity}}</dd>
        <dt>Captures</dt><dd>{{captures}} <a href="/captures">List them and compare</a></dd>
        <dt>Last full check of the data</dt><dd>{{#lastVerified}}{{lastVerified}}{{/lastVerified}}{{^lastVerified}}none yet{{/lastVerified}}</dd>
        <dt>Records held</dt><dd>{{recordsTracked}}</dd>
        </dl>
        <div class="actions">
        <form method="post" action="/archive/integrity"><input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">Check integrity now</button> <span class="muted">reads the whole archive; takes a while on a large one</span></form>
        <form method="post" action="/archive/backup"><input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">Back up the archive</button> <span class="muted">a verified copy in <code>backups/</code> beside it, made while checks go on; keep one on another disk</span></form>
        </div>
        </section>
        <section><h2>Types covered</h2>
        {{^empty(types)}}<div class="scroll"><table><thead><tr><th scope="col">Sample type</th><th scope="col">Records</th><th scope="col">Sources</th><th scope="col">Monitored live</th></tr></thead><tbody>
        {{#types}}<tr><th scope="row">{{name}}<br><code class="muted">{{type}}</code></th><td data-label="Records">{{records}}</td><td data-label="Sources"><bdi>{{sources}}</bdi></td><td data-label="Monitored live">{{#monitored}}yes{{/monitored}}{{^monitored}}no{{/monitored}}</td></tr>{{/types}}
        </tbody></table></div>{{/empty(types)}}{{#empty(types)}}<p class="muted">Nothing captured yet.</p>{{/empty(types)}}
        </section>
        <section><h2>Health and iCloud context</h2>
        <p class="muted">For correlation only: HealthProbe never syncs its own data.</p>
        <dl class="facts"><dt>iCloud</dt><dd>{{iCloud}}</dd><dt>Last sync seen</dt><dd>{{#lastSync}}{{lastSync}}{{/lastSync}}{{^lastSync}}none recorded{{/lastSync}}</dd></dl>
        {{^empty(contextEvents)}}<ul class="trail">{{#contextEvents}}<li><time>{{at}}</time> <span class="chip static">{{kind}}</span> {{detail}}</li>{{/contextEvents}}</ul>{{/empty(contextEvents)}}
        {{#empty(contextEvents)}}<p class="muted">No context event recorded (the iPhone app records them).</p>{{/empty(contextEvents)}}
        </section>
        {{/body}}{{/content}}{{/layout}}
        """

    static let settings = """
        {{<layout}}{{$content}}{{#body}}
        <h1>Settings</h1>
        {{#error}}<p class="error" role="alert" id="settings-error">{{error}}</p>{{/error}}
        <form method="post" action="/settings" class="settings">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <fieldset><legend>Check frequency</legend><p class="muted">How often the iPhone app checks Health in the background.</p>
        {{#frequencies}}<label class="check"><input type="radio" name="frequency" value="{{value}}"{{#selected}} checked{{/selected}}> {{label}}</label>{{/frequencies}}
        </fieldset>
        <fieldset><legend>Alert threshold</legend><p class="muted" id="threshold-meaning">{{#thresholdChosen}}The lowest severity that alerts; <code>healthprobe check</code> exits 3 at or above it ({{thresholdName}}) unless <code>--fail-on</code> says otherwise.{{/thresholdChosen}}{{^thresholdChosen}}The lowest severity that alerts on the iPhone (Warning until you choose). <code>healthprobe check</code> exits 0 whatever it finds until a threshold is saved here or given with <code>--fail-on</code>; then it exits 3 at or above it.{{/thresholdChosen}}</p>
        {{#thresholds}}<label class="check"><input type="radio" name="threshold" value="{{value}}"{{#selected}} checked{{/selected}}> {{label}}</label>{{/thresholds}}
        </fieldset>
        <fieldset><legend>Sample types to monitor</legend><p class="muted">What the iPhone app reads from Health. Checking an export reads every type it holds.</p>
        {{#types}}<label class="check"><input type="checkbox" name="type" value="{{value}}"{{#selected}} checked{{/selected}}> {{label}}</label>{{/types}}
        </fieldset>
        <p><button type="submit" class="primary">Save settings</button></p>
        </form>
        {{#days}}<section class="card" id="days"><h2>Each day's figures</h2>
        <p class="muted">A day's figure is counted as the Health app counts it: local days in one time zone, and where several sources record the same moment, the source highest in the type's order (by default: entered by hand, Apple Watch, iPhone, then other apps, the one added last first).</p>
        {{#daysError}}<p class="error" role="alert" id="days-error">{{daysError}}</p>{{/daysError}}
        <form method="post" action="/settings/days" class="inline"><input type="hidden" name="csrf" value="{{csrf}}">
        <label for="zone">Time zone of days</label> <input id="zone" name="zone" list="zones" value="{{zone}}" placeholder="{{systemZone}} (this computer’s)" autocomplete="off">
        <datalist id="zones">{{#zones}}<option value="{{.}}">{{/zones}}</datalist>
        <button type="submit">Save time zone</button></form>
        <h3>Source order</h3>
        {{#orders}}<form method="post" action="/settings/source-order" class="inline source-order"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="type" value="{{type}}"><input type="hidden" name="order" value="">
        <span>{{typeName}}: <bdi>{{sources}}</bdi></span> <button type="submit">Health’s default</button></form>{{/orders}}
        {{^orders}}<p class="muted">Health’s default for every type.</p>{{/orders}}
        {{^empty(types)}}<form method="post" action="/settings/source-order" class="stacked"><input type="hidden" name="csrf" value="{{csrf}}">
        <label for="order-type">Type</label> <select id="order-type" name="type">{{#types}}<option value="{{type}}"{{#selected}} selected{{/selected}}>{{typeName}} ({{sources}})</option>{{/types}}</select>
        <label for="order-lines">Its sources, best first, one per line (the others follow in Health’s order; empty restores it)</label>
        <textarea id="order-lines" name="order" rows="4">{{lines}}</textarea>
        <p><button type="submit">Save order</button></p></form>{{/empty(types)}}
        {{#empty(types)}}<p class="muted">No type has more than one source yet.</p>{{/empty(types)}}
        </section>{{/days}}
        <section class="card danger"><h2>Delete all audit data</h2>
        <p>Deletes every capture, record, anomaly and audit entry in this archive. Settings stay.</p>
        <p><a class="button danger" href="/settings/delete">Delete all audit data…</a></p></section>
        {{/body}}{{/content}}{{/layout}}
        """

    static let confirmDeletion = """
        {{<layout}}{{$content}}{{#body}}
        <section class="card danger"><h1>Delete all audit data?</h1>
        <p>This deletes {{captures}} captures, {{records}} records and {{anomalies}} anomalies, and the audit trail. It cannot be undone. Your settings stay.</p>
        <form method="post" action="/settings/delete"><input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" class="danger">Delete everything</button> <a class="button" href="/settings">Cancel</a></form>
        </section>
        {{/body}}{{/content}}{{/layout}}
        """

    static let check = """
        {{<layout}}{{$content}}{{#body}}
        <h1>Check Now</h1>
        <p>Export your data from the Health app on iPhone (your profile picture, then Export All Health Data), copy <code>export.zip</code> to this computer, and choose it here. HealthProbe stores it as a new capture and compares it with the previous one. The file stays on this computer and is deleted once checked.</p>
        <p>Or choose the iPhone’s own Health database, <code>healthdb_secure.sqlite</code> from a decrypted backup, with <code>healthdb.sqlite</code> beside it to name its sources. An encrypted backup folder is checked from the terminal: <code>healthprobe check BACKUP-FOLDER</code>.</p>
        {{#refusedBusy}}<p class="flash role-warning" role="alert">Your file was not checked: another check was running, and only one runs at a time. It was not kept; choose it again when that check ends.</p>{{/refusedBusy}}
        {{#running}}<p class="flash" role="status">A check is already running. <a href="{{running}}">Follow it</a>.</p>{{/running}}
        <form method="post" action="/check" enctype="multipart/form-data" class="upload">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="export-file" class="drop"><span>Choose <code>export.zip</code> or <code>healthdb_secure.sqlite</code> (or drop it here)</span>
        <input id="export-file" name="export" type="file" accept=".zip,.xml,.sqlite,application/zip,text/xml" required></label>
        <label for="sources-file">With a Health database: its <code>healthdb.sqlite</code> (optional)
        <input id="sources-file" name="sources" type="file" accept=".sqlite"></label>
        <p class="muted">Up to {{maxUpload}}.</p>
        <button type="submit" class="primary">Check this file</button>
        </form>
        {{/body}}{{/content}}{{/layout}}
        """

    static let checkProgress = """
        {{<layout}}{{$content}}{{#body}}
        <h1>Check of {{inputName}}</h1>
        {{#running}}<p role="status" aria-live="polite">{{phase}}: {{records}} records read{{#percent}}, {{percent}} %{{/percent}}{{#currentType}} — {{currentType}}{{/currentType}}.</p>
        <progress {{#percent}}value="{{percent}}" {{/percent}}max="100">{{records}} records</progress>
        <p class="muted">This page refreshes itself every second. Other pages stay readable meanwhile.</p>{{/running}}
        {{#failed}}<section class="card notice role-critical" role="alert"><h2>The check did not complete</h2><p>{{failed}}</p>{{#archiveUnchanged}}<p>The archive was read again afterwards: it was left as it was.</p>{{/archiveUnchanged}}
        {{#allowAnyway}}<p>{{explanation}} The file was not kept.</p>
        <form method="post" action="/check" enctype="multipart/form-data" class="upload">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="allow" value="{{value}}">
        <label for="again-file">The same file again
        <input id="again-file" name="export" type="file" accept=".zip,.xml,.sqlite,application/zip,text/xml" required></label>
        <button type="submit">{{button}}</button>
        </form>{{/allowAnyway}}
        <p><a class="button" href="/check">Choose another file</a></p></section>{{/failed}}
        {{#done}}<section class="status role-{{statusRole}}">{{{statusIcon}}}<div class="status-text"><h2>{{statusTitle}}</h2>
        <p>{{verdict}}</p>
        <p>Capture {{captureId}}: {{records}} records, {{new}} new, {{unchanged}} unchanged, {{gone}} gone{{#unreadable}}, {{unreadable}} unreadable kept raw{{/unreadable}}.</p></div></section>
        {{^empty(anomalies)}}<h2>Anomalies found</h2><ul class="rows">{{#anomalies}}{{> anomalyRow}}{{/anomalies}}</ul>{{/empty(anomalies)}}
        {{#notes}}<p class="muted">Note: {{.}}.</p>{{/notes}}
        <p><a class="button" href="/">Dashboard</a> <a class="button" href="/anomalies">Anomalies</a></p>{{/done}}
        {{/body}}{{/content}}{{/layout}}
        """
}
