/// A record keeps its last two sightings (`lastSeenCapture`, `previousSeenCapture`); undoing the
/// last one — a capture set aside, a failed capture rolled back — makes the previous one the
/// last, and the sighting before that is found again rather than forgotten, so that a second
/// capture can be undone after the first.
///
/// A record present in a snapshot capture P that it was not first seen in was either in the
/// capture P was compared with (`capture.previousCaptureId`), or came back in P after an absence
/// (`recordAbsence` with `returnCapture` = P, which keeps its sighting before the absence).
enum RecordSightings {
    /// The sighting before `previousSeenCapture`, as an SQL expression over a `record` row: what
    /// `previousSeenCapture` becomes when `lastSeenCapture` takes its value.
    static let beforePrevious = """
        (CASE WHEN record.previousSeenCapture IS NULL OR record.firstSeenCapture >= record.previousSeenCapture
            THEN NULL
            ELSE IFNULL(
                (SELECT absence.lastSeenCapture FROM recordAbsence AS absence
                 WHERE absence.recordId = record.id AND absence.returnCapture = record.previousSeenCapture),
                (SELECT compared.previousCaptureId FROM capture AS compared
                 WHERE compared.id = record.previousSeenCapture))
        END)
        """
}
