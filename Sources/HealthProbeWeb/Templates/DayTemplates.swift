/// The day page: each figure as the Health app combines sources, and each source's part.
enum DayTemplates {
    static let day = """
        {{<layout}}{{$content}}{{#body}}
        <p><a href="/">← Dashboard</a></p>
        <h1>{{date}}</h1>
        <p class="muted">Local day in {{zone}}. Health does not add sources that record the same time: each moment comes from the source highest in the type's order (entered by hand, Apple Watch, iPhone, then other apps, the one added last first; <a href="/settings#days">Settings</a> or <code>healthprobe settings --source-order</code> changes it). A day's sleep is the night that ends on it.</p>
        <nav aria-label="Days" class="chips"><a class="chip" rel="prev" href="{{previousHref}}">← Day before</a><a class="chip" rel="next" href="{{nextHref}}">Day after →</a></nav>
        {{#empty(figures)}}<p class="muted">No records on this day.</p>{{/empty(figures)}}
        {{#figures}}<section class="card" data-type="{{type}}" aria-label="{{name}}"><h2><bdi>{{name}}</bdi>: {{headline}}</h2>
        {{#remark}}<p class="remark"><bdi>{{remark}}</bdi></p>{{/remark}}
        {{#copies}}<p class="muted">{{copies}}</p>{{/copies}}
        <div class="scroll"><table class="day-sources"><thead><tr><th scope="col">#</th><th scope="col">Source</th><th scope="col">Counted</th><th scope="col">Left out (covered by a better-placed source)</th><th scope="col">Samples</th></tr></thead><tbody>
        {{#parts}}<tr><td data-label="Place">{{place}}</td><th scope="row"><bdi>{{source}}</bdi> <span class="muted">({{tier}})</span></th><td data-label="Counted">{{counted}}</td><td data-label="Left out">{{leftOut}}</td><td data-label="Samples">{{samples}}</td></tr>{{/parts}}
        </tbody></table></div></section>{{/figures}}
        {{/body}}{{/content}}{{/layout}}
        """
}
