/// The Cypher a sync runs, each taking its rows as `$rows` (docs/GRAPH.md §2: `UNWIND … MERGE … SET …
/// WITH … MATCH … MERGE`). Only constructs both Neo4j and FalkorDB accept; a map of values is set
/// with `+=`, where null removes a property the sync owns and a property it does not own is left
/// alone. `Day`, `DailySummary` and `SleepSession` carry their `date` as a DATE (what the
/// dashboards read) and are found by `day`, the same date as ISO text: FalkorDB 4.16 looks a
/// DATE up in its index about a hundred times slower than a string.
enum GraphStatements {
    static let person = "MERGE (:Person {name: 'Me'})"

    static let metricTypes = """
        UNWIND $rows AS row MERGE (m:MetricType {identifier: row.identifier})
        SET m.display_name = row.display_name, m.unit = row.unit, m.category = row.category
        """

    static let devices = """
        UNWIND $rows AS row MERGE (d:Device {name: row.name})
        WITH d MATCH (p:Person {name: 'Me'}) MERGE (p)-[:USES]->(d)
        """

    static let weeks = """
        UNWIND $rows AS row MERGE (w:Week {iso: row.iso})
        SET w.year = row.year, w.week_number = row.week_number, w.start_date = date(row.start_date)
        """

    static let days = """
        UNWIND $rows AS row MERGE (d:Day {day: row.date})
        SET d.date = date(row.date), d.day_of_week = row.day_of_week, d += row.rings
        WITH d, row MATCH (w:Week {iso: row.week}) MERGE (d)-[:PART_OF]->(w)
        """

    static let summaries = """
        UNWIND $rows AS row MERGE (s:DailySummary {day: row.date}) SET s.date = date(row.date), s += row.values
        WITH s, row MATCH (d:Day {day: row.date}) MERGE (d)-[:HAS_SUMMARY]->(s)
        """

    static let sleepSessions = """
        UNWIND $rows AS row MERGE (s:SleepSession {day: row.date}) SET s.date = date(row.date), s += row.values
        WITH s, row MATCH (d:Day {day: row.date}) MERGE (s)-[:ON_DAY]->(d)
        """

    static let removeSleepSessions = "UNWIND $rows AS day MATCH (s:SleepSession {day: day}) DETACH DELETE s"

    static let removeSummaries = "UNWIND $rows AS day MATCH (s:DailySummary {day: day}) DETACH DELETE s"

    /// Workouts of a rewritten day that the archive no longer holds there.
    static let removeWorkouts = """
        UNWIND $rows AS row MATCH (w:Workout)-[:ON_DAY]->(d:Day {day: row.date})
        WHERE NOT w.uid IN row.uids DETACH DELETE w
        """

    static let workouts = """
        UNWIND $rows AS row MERGE (w:Workout {uid: row.uid}) SET w += row.values
        WITH w, row MATCH (d:Day {day: row.date}) MERGE (w)-[:ON_DAY]->(d)
        """

    static let recorded = """
        UNWIND $rows AS row MATCH (w:Workout {uid: row.uid}) MATCH (dev:Device {name: row.device})
        MERGE (dev)-[:RECORDED]->(w)
        """

    static let anomalies = """
        UNWIND $rows AS row MERGE (a:Anomaly {id: row.id}) SET a += row.values
        WITH a, row MERGE (m:MetricType {identifier: row.sample_type}) MERGE (a)-[:OF_TYPE]->(m)
        """

    /// An anomaly's days, made where the graph has none (a day that lost everything).
    static let affects = """
        UNWIND $rows AS row MATCH (a:Anomaly {id: row.id})
        MERGE (w:Week {iso: row.week})
        ON CREATE SET w.year = row.year, w.week_number = row.week_number, w.start_date = date(row.start_date)
        MERGE (d:Day {day: row.date}) ON CREATE SET d.date = date(row.date), d.day_of_week = row.day_of_week
        MERGE (d)-[:PART_OF]->(w) MERGE (a)-[:AFFECTS]->(d)
        """

    /// A day left with nothing goes, unless an anomaly points at it (the loss is the finding).
    static let removeDays = """
        UNWIND $rows AS day MATCH (d:Day {day: day})
        WHERE NOT (d)<-[:AFFECTS]-(:Anomaly) DETACH DELETE d
        """

    /// Each day of the neighbourhood keeps only the NEXT_DAY links of the new chain.
    static let unlinkFollowingDays = """
        UNWIND $rows AS row MATCH (d:Day {day: row.date})-[r:NEXT_DAY]->(n:Day)
        WHERE row.next IS NULL OR n.day <> row.next DELETE r
        """

    /// Written from the day found by its key: FalkorDB scans every day for `(p)-[r]->(d {…})`.
    static let unlinkPrecedingDays = """
        UNWIND $rows AS row MATCH (d:Day {day: row.date})<-[r:NEXT_DAY]-(p:Day)
        WHERE row.previous IS NULL OR p.day <> row.previous DELETE r
        """

    static let linkDays = """
        UNWIND $rows AS row MATCH (d:Day {day: row.date}) MATCH (n:Day {day: row.next})
        MERGE (d)-[:NEXT_DAY]->(n)
        """

    static let unlinkSleep = """
        UNWIND $rows AS row MATCH (w:Workout {uid: row.uid})-[f:FOLLOWED_BY]->(s:SleepSession)
        WHERE row.sleep IS NULL OR s.day <> row.sleep DELETE f
        """

    static let linkSleep = """
        UNWIND $rows AS row MATCH (w:Workout {uid: row.uid}) MATCH (s:SleepSession {day: row.sleep})
        MERGE (w)-[f:FOLLOWED_BY]->(s) SET f.hours_between = row.hours_between
        """

    static let sync = """
        UNWIND $rows AS row MERGE (s:Sync {id: row.id}) SET s += row.values
        """
}
