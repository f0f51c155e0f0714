/// How a destination keys the nodes of a day (`Day`, `DailySummary`, `SleepSession`). Both
/// carry both properties — `date`, a DATE (what HealthGraphSync's graph and dashboards key and
/// read), and `day`, the same date as ISO text — and differ in which one `MERGE` and `MATCH` use.
public enum GraphDayKey: Sendable {
    /// By `date`, as HealthGraphSync's graph and constraints do (Neo4j): a sync into a database
    /// that already holds that graph merges into the same nodes.
    case date
    /// By `day` (FalkorDB): FalkorDB 4.16 looks a DATE up in its index about a hundred times
    /// slower than a string, and its unique constraints do not guard DATE-valued keys.
    case text

    /// The property a day's node is merged on.
    var property: String { self == .date ? "date" : "day" }
}

/// The Cypher a sync runs, each taking its rows as `$rows` (docs/GRAPH.md §2: `UNWIND … MERGE …
/// SET … WITH … MATCH … MERGE`). Only constructs both Neo4j and FalkorDB accept; a map of values
/// is set with `+=`, where null removes a property the sync owns and a property it does not own is
/// left alone. A day's node is found by the destination's ``GraphDayKey``, from the ISO text the
/// rows carry.
struct GraphStatements {
    let key: GraphDayKey

    /// `(d:Day {date: date(row.date)})` or `(d:Day {day: row.date})`.
    private func node(_ variable: String, _ label: String, _ text: String) -> String {
        key == .date ? "(\(variable):\(label) {date: date(\(text))})" : "(\(variable):\(label) {day: \(text)})"
    }

    /// Sets the day property that is not the key, from the ISO text.
    private func other(_ variable: String, _ text: String) -> String {
        key == .date ? "\(variable).day = \(text)" : "\(variable).date = date(\(text))"
    }

    /// A day node's key as ISO text, to compare with the text rows carry.
    private func text(_ variable: String) -> String {
        key == .date ? "toString(\(variable).date)" : "\(variable).day"
    }

    let person = "MERGE (:Person {name: 'Me'})"

    let metricTypes = """
        UNWIND $rows AS row MERGE (m:MetricType {identifier: row.identifier})
        SET m.display_name = row.display_name, m.unit = row.unit, m.category = row.category
        """

    let devices = """
        UNWIND $rows AS row MERGE (d:Device {name: row.name})
        WITH d MATCH (p:Person {name: 'Me'}) MERGE (p)-[:USES]->(d)
        """

    let weeks = """
        UNWIND $rows AS row MERGE (w:Week {iso: row.iso})
        SET w.year = row.year, w.week_number = row.week_number, w.start_date = date(row.start_date)
        """

    var days: String {
        """
        UNWIND $rows AS row MERGE \(node("d", "Day", "row.date"))
        SET \(other("d", "row.date")), d.day_of_week = row.day_of_week, d += row.rings
        WITH d, row MATCH (w:Week {iso: row.week}) MERGE (d)-[:PART_OF]->(w)
        """
    }

    var summaries: String {
        """
        UNWIND $rows AS row MERGE \(node("s", "DailySummary", "row.date")) SET \(other("s", "row.date")), s += row.values
        WITH s, row MATCH \(node("d", "Day", "row.date")) MERGE (d)-[:HAS_SUMMARY]->(s)
        """
    }

    var sleepSessions: String {
        """
        UNWIND $rows AS row MERGE \(node("s", "SleepSession", "row.date")) SET \(other("s", "row.date")), s += row.values
        WITH s, row MATCH \(node("d", "Day", "row.date")) MERGE (s)-[:ON_DAY]->(d)
        """
    }

    var removeSleepSessions: String {
        "UNWIND $rows AS day MATCH \(node("s", "SleepSession", "day")) DETACH DELETE s"
    }

    var removeSummaries: String {
        "UNWIND $rows AS day MATCH \(node("s", "DailySummary", "day")) DETACH DELETE s"
    }

    /// Workouts of a rewritten day that the archive no longer holds there. The day is found by
    /// its key in a clause of its own: given the whole pattern at once, FalkorDB scans every
    /// workout for every row (70 s of an 87 s `--full` at 1M records, 2026-11-25).
    var removeWorkouts: String {
        """
        UNWIND $rows AS row MATCH \(node("d", "Day", "row.date")) WITH d, row
        MATCH (d)<-[:ON_DAY]-(w:Workout) WHERE NOT w.uid IN row.uids DETACH DELETE w
        """
    }

    /// A workout of a rewritten day that this sync already wrote to another day (it moved to an
    /// earlier month, as a change of time zone moves one near midnight): only its link to this
    /// day goes, before ``removeWorkouts`` removes the rest.
    var unlinkMovedWorkouts: String {
        """
        UNWIND $rows AS row MATCH \(node("d", "Day", "row.date")) WITH d, row
        MATCH (d)<-[r:ON_DAY]-(w:Workout)-[:ON_DAY]->(e:Day)
        WHERE NOT w.uid IN row.uids AND \(text("e")) <> row.date DELETE r
        """
    }

    var workouts: String {
        """
        UNWIND $rows AS row MERGE (w:Workout {uid: row.uid}) SET w += row.values
        WITH w, row MATCH \(node("d", "Day", "row.date")) MERGE (w)-[:ON_DAY]->(d)
        """
    }

    let recorded = """
        UNWIND $rows AS row MATCH (w:Workout {uid: row.uid}) MATCH (dev:Device {name: row.device})
        MERGE (dev)-[:RECORDED]->(w)
        """

    /// Metric types an anomaly names are made like the others (the catalog's names and units).
    let anomalies = """
        UNWIND $rows AS row MERGE (a:Anomaly {id: row.id}) SET a += row.values
        WITH a, row MERGE (m:MetricType {identifier: row.sample_type})
        SET m.display_name = row.display_name, m.unit = row.unit, m.category = row.category
        MERGE (a)-[:OF_TYPE]->(m)
        """

    /// An anomaly's links to days it no longer affects (its days in another time zone).
    var unlinkAffected: String {
        """
        UNWIND $rows AS row MATCH (a:Anomaly {id: row.id}) WITH a, row
        MATCH (a)-[r:AFFECTS]->(d:Day) WHERE NOT \(text("d")) IN row.days DELETE r
        """
    }

    /// An anomaly's days, made where the graph has none (a day that lost everything).
    var affects: String {
        """
        UNWIND $rows AS row MATCH (a:Anomaly {id: row.id})
        MERGE (w:Week {iso: row.week})
        ON CREATE SET w.year = row.year, w.week_number = row.week_number, w.start_date = date(row.start_date)
        MERGE \(node("d", "Day", "row.date")) ON CREATE SET d.day_of_week = row.day_of_week
        SET \(other("d", "row.date"))
        MERGE (d)-[:PART_OF]->(w) MERGE (a)-[:AFFECTS]->(d)
        """
    }

    /// A day left with nothing goes, unless an anomaly points at it (the loss is the finding).
    var removeDays: String {
        """
        UNWIND $rows AS day MATCH \(node("d", "Day", "day"))
        WHERE NOT (d)<-[:AFFECTS]-(:Anomaly) DETACH DELETE d
        """
    }

    /// Each day of the neighbourhood keeps only the NEXT_DAY links of the new chain. The day is
    /// found by its key in a clause of its own, so that FalkorDB starts from its index rather
    /// than from every day.
    var unlinkFollowingDays: String {
        """
        UNWIND $rows AS row MATCH \(node("d", "Day", "row.date")) WITH d, row
        MATCH (d)-[r:NEXT_DAY]->(n:Day) WHERE row.next IS NULL OR \(text("n")) <> row.next DELETE r
        """
    }

    var unlinkPrecedingDays: String {
        """
        UNWIND $rows AS row MATCH \(node("d", "Day", "row.date")) WITH d, row
        MATCH (d)<-[r:NEXT_DAY]-(p:Day) WHERE row.previous IS NULL OR \(text("p")) <> row.previous DELETE r
        """
    }

    var linkDays: String {
        """
        UNWIND $rows AS row MATCH \(node("d", "Day", "row.date")) MATCH \(node("n", "Day", "row.next"))
        MERGE (d)-[:NEXT_DAY]->(n)
        """
    }

    var unlinkSleep: String {
        """
        UNWIND $rows AS row MATCH (w:Workout {uid: row.uid})-[f:FOLLOWED_BY]->(s:SleepSession)
        WHERE row.sleep IS NULL OR \(text("s")) <> row.sleep DELETE f
        """
    }

    var linkSleep: String {
        """
        UNWIND $rows AS row MATCH (w:Workout {uid: row.uid}) MATCH \(node("s", "SleepSession", "row.sleep"))
        MERGE (w)-[f:FOLLOWED_BY]->(s) SET f.hours_between = row.hours_between
        """
    }

    let sync = """
        UNWIND $rows AS row MERGE (s:Sync {id: row.id}) SET s += row.values
        """
}
