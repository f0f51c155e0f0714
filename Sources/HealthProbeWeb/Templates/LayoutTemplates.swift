/// The page frame every screen shares, and the partials several use. Mustache `{{x}}` escapes
/// HTML; `{{{x}}}` is used only for SVG and icons the program drew and escaped itself.
enum LayoutTemplates {
    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        {{#refreshSeconds}}<meta http-equiv="refresh" content="{{refreshSeconds}}">{{/refreshSeconds}}
        <title>{{title}} · HealthProbe</title>
        <link rel="stylesheet" href="/static/style.css">
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
        <p class="brand">{{{brandIcon}}}<span>HealthProbe</span></p>
        <nav aria-label="Screens"><ul>
        {{#tabs}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{{icon}}}<span>{{label}}</span></a></li>
        {{/tabs}}</ul></nav>
        </header>
        <main id="main" tabindex="-1">
        {{#flash}}<p class="flash" role="status">{{flash}}</p>{{/flash}}
        {{$content}}{{/content}}
        </main>
        <footer><p>Served from this computer to this computer only. Nothing leaves it.</p></footer>
        </body>
        </html>
        """

    static let anomalyRow = """
        <li class="row">
        <a class="row-link" href="/anomalies/{{id}}" aria-label="{{accessibilityLabel}}">
        <span class="badge role-{{severityRole}}">{{severityTitle}}</span>
        <span class="row-main"><strong>{{typeTitle}}</strong> · {{sampleTypeName}}<br><bdi class="muted">{{summary}}</bdi></span>
        <span class="row-date">{{detectedAt}}{{#resolved}}<br><span class="badge role-neutral">Resolved</span>{{/resolved}}</span>
        </a>
        {{^resolved}}<form method="post" action="/anomalies/{{id}}/resolve" class="row-action">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="return" value="{{returnPath}}">
        <button type="submit" aria-label="Mark anomaly {{id}} resolved">Resolve</button>
        </form>{{/resolved}}
        </li>
        """

    static let error = """
        {{<layout}}{{$content}}{{#body}}
        <section class="card notice">
        <h1>{{heading}}</h1>
        <p>{{message}}</p>
        {{#linkHref}}<p><a class="button" href="{{linkHref}}">{{linkLabel}}</a></p>{{/linkHref}}
        </section>
        {{/body}}{{/content}}{{/layout}}
        """
}
