/// The formats an export can be written in.
public enum ExportFormat: String, Sendable, CaseIterable, Codable {
    /// One JSON document: what the export holds, then its records, written as it goes.
    case json
    /// One JSON record a line.
    case jsonl
    /// RFC 4180, UTF-8, a header row, one row a record.
    case csv
    /// A SQLite database: samples, workouts and their parts, correlations' members, daily
    /// summaries, and what the export holds.
    case sqlite
    /// A zip laid out as the Health app exports: `export.xml` in Apple's form, and the routes,
    /// ECG recordings and clinical documents beside it, as the capture held them.
    case appleHealth = "apple-health"
}
